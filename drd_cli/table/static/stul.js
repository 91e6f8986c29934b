// drd stůl: puts the server's state into the page as text (never as HTML) and sends what is
// tapped or typed. The state comes as a whole with every event, so a page that reconnects is
// at once where the game is.
(function () {
  "use strict";
  var body = document.body;
  var boot = JSON.parse(body.dataset.state);
  var t = boot.t;
  var role = body.dataset.role;
  var base = location.pathname.replace(/\/+$/, "");
  var shownQ = null;
  var busy = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function send(obj) {
    if (busy) { return; }
    busy = true;
    $("error").textContent = "";
    fetch(base + "/act", {method: "POST", headers: {"Content-Type": "application/json"},
                           body: JSON.stringify(obj), credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (j) { if (!j.ok) { $("error").textContent = j.message; } })
      .catch(function () { $("error").textContent = t.offline; })
      .then(function () { busy = false; });
  }
  function answer(q, text) {
    if (role === "gm") { send({cmd: "answer", q: q, text: text}); } else { send({q: q, text: text}); }
  }

  function person(p, s) {
    var li = el("li");
    li.dataset.id = p.id;
    if (s.me === p.id) { li.className = "me"; }
    if (s.turn && s.turn.who === p.id || s.pending && s.pending.who === p.id) { li.className += " turn"; }
    li.appendChild(el("div", p.name + (p.side ? " · " + p.side : ""), "name"));
    if (p.secret) { li.appendChild(el("div", t.secret, "secret")); }
    var res = [];
    if (p.hero) { res.push("Tělo " + p.telo, "Duše " + p.duse, "Vliv " + p.vliv); } else { res.push("Sudba " + p.sudba); }
    res.push("Ohrožení " + p.ohrozeni);
    if (p.vyhody) { res.push("Výhody " + p.vyhody); }
    li.appendChild(el("div", res.join(" · ")));
    if (p.jizvy && p.jizvy.length) { li.appendChild(el("div", "Jizvy: " + p.jizvy.join(", "))); }
    if (p.conditions && p.conditions.length) { li.appendChild(el("div", t.conditions + ": " + p.conditions.join(", "))); }
    var roll = s.board.rolls[p.id];
    if (roll && roll.total !== null && roll.total !== undefined) {
      li.appendChild(el("div", t.roll + ": " + (roll.dice ? roll.dice.join(" ") + " → " : "") + roll.total));
    }
    return li;
  }

  function names(s) {
    var m = {};
    s.board.people.forEach(function (p) { m[p.id] = p.name; });
    return m;
  }

  function renderQuestion(s) {
    var q = role === "gm" ? s.pending : s.question;
    var box = $("question-body");
    var typed = role === "gm" ? (s.proposed ? s.proposed.text : "") : (q && q.proposed) || "";
    var key = q ? q.id + ":" + q.lines.length + ":" + typed + ":" + s.status : "none:" + s.status + ":" + (s.turn ? s.turn.who : "");
    if (key === shownQ) { return; }
    var keep = shownQ && q && shownQ.split(":")[0] === String(q.id) && $("answer") ? $("answer").value : "";
    shownQ = key;
    clear(box);
    box.dataset.q = q ? q.id : "";
    if (!q) {
      var who = s.turn ? names(s)[s.turn.who] || "" : "";
      box.appendChild(el("p", s.status !== "running" ? "" : (role === "gm" ? t.nobody : (who ? t.waiting_for + " " + who : t.waiting))));
      return;
    }
    if (role === "gm" && q.who) { box.appendChild(el("p", t.pending + ": " + (names(s)[q.who] || q.who), "who")); }
    if (role === "player") { box.appendChild(el("p", t.your_turn, "who")); }
    var lines = el("ul", null, "lines");
    q.lines.filter(function (x) { return x.trim() && !/^\s*\[\w+\]\s/.test(x); })
      .forEach(function (x) { lines.appendChild(el("li", x.trim())); });
    box.appendChild(lines);
    if (typed) {
      var note = el("p", t.proposed + ": " + typed, "proposed");
      note.id = "proposed";
      box.appendChild(note);
      if (role === "gm") {
        var ok = el("button", t.confirm + ": " + typed);
        ok.type = "button"; ok.id = "confirm";
        ok.addEventListener("click", function () { send({cmd: "confirm"}); });
        box.appendChild(ok);
      }
    }
    if (q.options && q.options.length) {
      var opts = el("div", null, "options");
      q.options.forEach(function (o) {
        var b = el("button", "[" + o.key + "] " + o.text);
        b.type = "button";
        b.dataset.key = o.key;
        b.addEventListener("click", function () { answer(q.id, o.key); });
        opts.appendChild(b);
      });
      box.appendChild(opts);
    }
    var form = el("form", null, "row");
    var label = el("label", q.kind === "roll" && role === "player" ? t.dice : q.prompt);
    label.htmlFor = "answer";
    var input = el("input");
    input.id = "answer"; input.name = "answer"; input.autocomplete = "off"; input.maxLength = 100;
    if (q.kind === "roll") { input.inputMode = "numeric"; }
    input.value = keep;
    var go = el("button", t.send); go.type = "submit"; go.id = "send";
    form.appendChild(label); form.appendChild(input); form.appendChild(go);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); answer(q.id, input.value); });
    box.appendChild(form);
    var row = el("div", null, "buttons");
    var dflt = el("button", q.kind === "roll" ? t.roll_for_me : t.enter, "secondary");
    dflt.type = "button"; dflt.id = "default";
    dflt.addEventListener("click", function () { answer(q.id, ""); });
    var why = el("button", t.why, "secondary");
    why.type = "button"; why.id = "why";
    why.addEventListener("click", function () { answer(q.id, "?"); });
    row.appendChild(dflt); row.appendChild(why);
    box.appendChild(row);
  }

  function render(s) {
    var st = t["status_" + s.status] || s.status;
    var b = s.board;
    $("status").textContent = st;
    $("round").textContent = (b.round ? t.round + " " + b.round : "") + (b.step ? " · " + t.step + " " + (b.step_title || b.step) : "");
    var nm = names(s);
    $("initiative").textContent = b.initiative.length ? t.initiative + ": " + b.initiative.map(function (x) { return nm[x] || x; }).join(" → ") : "";
    var people = $("people");
    clear(people);
    b.people.forEach(function (p) { people.appendChild(person(p, s)); });
    var log = $("log");
    clear(log);
    s.log.filter(function (x) { return x.trim(); }).slice(role === "tv" ? -14 : -200)
      .forEach(function (x) { log.appendChild(el("li", x.trim())); });
    log.scrollTop = log.scrollHeight;
    if (role !== "tv") { renderQuestion(s); }
    if (role === "gm") {
      $("pause").textContent = s.status === "paused" ? t.resume : t.pause;
      $("undo").disabled = !s.can_undo || !s.pending;
      $("redo").disabled = !s.can_redo || !s.pending;
      var links = $("links");
      clear(links);
      s.players.forEach(function (p) {
        var li = el("li"), a = el("a", p.name);
        a.href = p.url;
        li.appendChild(a);
        links.appendChild(li);
      });
      if (s.error) { $("error").textContent = s.error; }
    }
    if (s.transcript) { $("transcript").textContent = s.transcript; $("transcript-s").hidden = false; }
    body.dataset.version = s.version;
    body.dataset.status = s.status;
  }

  if (role === "gm") {
    $("undo").addEventListener("click", function () { send({cmd: "undo"}); });
    $("redo").addEventListener("click", function () { send({cmd: "redo"}); });
    $("pause").addEventListener("click", function () { send({cmd: body.dataset.status === "paused" ? "resume" : "pause"}); });
    $("end").addEventListener("click", function () { if (window.confirm(t.end_sure)) { send({cmd: "end"}); } });
    $("correct-form").addEventListener("submit", function (ev) {
      ev.preventDefault(); send({cmd: "correct", text: $("correct-dice").value}); $("correct-dice").value = "";
    });
  }

  render(boot.state);
  var source = null;
  function connect() {
    source = new EventSource(base + "/events");
    source.addEventListener("state", function (ev) { $("offline").hidden = true; render(JSON.parse(ev.data)); });
    source.onopen = function () { $("offline").hidden = true; };
    source.onerror = function () {
      $("offline").hidden = false;
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }
  connect();
})();
