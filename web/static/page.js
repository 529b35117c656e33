// Quarterdeck's read-only pages. Without this script every page still reads whole (times in UTC, the
// replay one move per load); with it, times show in the reader's zone, a game's page follows the game
// live (Server-Sent Events) and the replay scrubs without reloading. No text is ever parsed as HTML.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const FORMAT = new Intl.DateTimeFormat(undefined, {
  weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
  timeZoneName: "short",
});

function localTimes(root) {
  for (const t of root.querySelectorAll("time[datetime]")) {
    const at = new Date(t.getAttribute("datetime"));
    if (isNaN(at)) continue;
    if (!t.title) t.title = t.textContent;  // the UTC words stay a hover away
    t.textContent = FORMAT.format(at);
  }
}

function timeTag(moment) {
  const t = el("time", { datetime: moment.iso }, moment.utc);
  localTimes(el("span", {}, t));
  return t;
}

function replaceChildren(node, ...children) {
  node.replaceChildren(...children);
}

function squadronNodes(squadrons) {
  return squadrons.map((q) => {
    const rows = q.ships.map((s) => el("tr", {}, el("th", { scope: "row" }, s.id), el("td", {}, s.class),
      el("td", {}, `${s.damage} / ${s.fortitude}`), el("td", {}, s.fatigue), el("td", {}, s.state)));
    const head = el("tr", {}, ...["Ship", "Class", "Damage", "Fatigue", "State"].map((h) => el("th", { scope: "col" }, h)));
    const cards = (q.face_up ? `Face-up card: ${q.face_up}. ` : "") + (q.discards.length ? `Played: ${q.discards.join(", ")}.` : "");
    return el("article", { class: "squadron" }, el("h3", {}, q.name ? `${q.who}: ${q.name}` : q.who),
      el("p", {}, `Admiral ${q.admiral}; fortune ${q.fortune}. ${cards}`),
      el("div", { class: "scroll" }, el("table", {}, el("caption", { class: "sr" }, `Ships of ${q.who}`),
        el("thead", {}, head), el("tbody", {}, ...rows))));
  });
}

function clockNodes(c) {
  const items = [];
  if (c.paused) items.push(el("li", {}, el("strong", {}, "The clock is paused.")));
  items.push(el("li", {}, `A reminder after ${c.reminder_hours} hours of waiting.`));
  items.push(el("li", {}, `A deadline after ${c.deadline_hours} hours; then ${c.on_deadline}.`));
  return [el("ul", {}, ...items)];
}

function accountNodes(snap) {
  const out = [];
  if (snap.earlier) out.push(el("p", {}, `${snap.earlier} earlier lines are in the replay below.`));
  const lines = snap.account.length ? snap.account : ["Nothing has happened yet."];
  out.push(el("ol", { id: "account-list", start: String(snap.earlier + 1) }, ...lines.map((l) => el("li", {}, l))));
  return out;
}

function fairNodes(snap) {
  const e = snap.ending;
  if (!e) {
    return [el("p", {}, "The dice come from a secret seed whose SHA-256 is ", el("code", { class: "hash" }, snap.commitment),
      ". The seed is shown here when the game ends, and every roll is then checked against it.")];
  }
  const test = e.test_dice ? " This game played with test dice, so there was no secret to prove." : "";
  return [
    el("p", {}, "The dice seed was ", el("code", { class: "hash" }, e.seed), "; its SHA-256 ",
      el("code", { class: "hash" }, e.commitment), " was published when the game began."),
    el("p", { id: "verification" }, `Every roll recomputed from the seed: ${e.verification}${test}`),
    el("p", {}, el("a", { href: "log.json", download: "" }, "Download the game's log"),
      " and check it yourself with ", el("code", {}, "quarterdeck verify --file"), "."),
  ];
}

function gamePage(main) {
  const $ = (id) => document.getElementById(id);
  const live = $("live");
  let frames = null;  // frames.json, fetched when the replay is first moved
  let framesFor = -1;
  let total = Number(main.dataset.frames || 0);
  let version = Number(main.dataset.version || 0);

  async function frameList() {
    if (frames === null || framesFor !== version) {
      const answer = await fetch("frames.json", { cache: "no-cache" });
      if (!answer.ok) return [];
      frames = await answer.json();
      framesFor = version;
    }
    return frames;
  }

  async function show(n) {
    const range = $("frame");
    if (!range) return;
    n = Math.max(1, Math.min(total, n));
    range.value = String(n);
    $("frame-no").textContent = String(n);
    const img = $("frame-img");
    img.src = `frame/${n}.png`;
    const list = await frameList();
    const f = list[n - 1];
    if (f) {
      img.alt = f.alt;
      replaceChildren($("frame-caption"), ...f.caption.map((line) => el("li", {}, line)));
    }
    const links = document.querySelectorAll(".steps a[data-frame]");
    const targets = [1, n - 1, n + 1, total];
    links.forEach((a, i) => {
      const to = Math.max(1, Math.min(total, targets[i]));
      a.dataset.frame = String(to);
      a.href = `?frame=${to}#replay`;
    });
    history.replaceState(null, "", `?frame=${n}#replay`);
  }

  function scrubber() {
    const range = $("frame");
    if (!range) return;
    range.addEventListener("input", () => show(Number(range.value)));
    for (const a of document.querySelectorAll(".steps a[data-frame]")) {
      a.addEventListener("click", (ev) => { ev.preventDefault(); show(Number(a.dataset.frame)); });
    }
    // the arrows, Home and End anywhere in the replay (the range itself already takes them)
    $("replay").addEventListener("keydown", (ev) => {
      if (ev.target === range || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const n = Number(range.value);
      const to = { ArrowLeft: n - 1, ArrowRight: n + 1, Home: 1, End: total }[ev.key];
      if (to !== undefined) { ev.preventDefault(); show(to); }
    });
  }

  function update(snap) {
    const atEnd = $("frame") ? Number($("frame").value) === total : false;
    version = snap.version;
    main.dataset.version = String(version);
    $("turn").textContent = `turn ${snap.turn}, ${snap.phase} phase`;
    $("waiting").textContent = snap.waiting;
    const deadline = $("deadline");
    if (snap.deadline) {
      replaceChildren(deadline, "Deadline: ", timeTag(snap.deadline));
      deadline.hidden = false;
    } else {
      deadline.hidden = true;
    }
    const board = $("board-img");
    board.alt = snap.alt;
    board.src = snap.board;
    replaceChildren($("squadron-list"), ...squadronNodes(snap.squadrons));
    replaceChildren($("clock-body"), ...clockNodes(snap.clock));
    replaceChildren($("account-body"), ...accountNodes(snap));
    replaceChildren($("fair-body"), ...fairNodes(snap));
    if (snap.frames !== total) {
      const first = total === 0;
      total = snap.frames;
      main.dataset.frames = String(total);
      if (first) { location.reload(); return; }  // the first move: the page grows its replay
      $("frame").max = String(total);
      $("frame-count").textContent = String(total);
      if (atEnd) show(total);  // a reader at the newest move follows the game
    }
    document.title = `${snap.name} · Quarterdeck`;
  }

  scrubber();
  if (!window.EventSource) return;
  live.textContent = "Connecting for live updates…";
  const source = new EventSource("events");
  source.addEventListener("open", () => {
    live.textContent = "Live: this page follows the game as it moves.";
    live.classList.add("on");
  });
  source.addEventListener("state", (ev) => {
    const snap = JSON.parse(ev.data);
    if (snap.version !== version || main.dataset.fresh !== "1") update(snap);
    main.dataset.fresh = "1";
  });
  source.addEventListener("error", () => {
    live.textContent = "Reconnecting for live updates…";
    live.classList.remove("on");
  });
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes(document);
  const main = document.querySelector("body.game main");
  if (main) gamePage(main);
});
