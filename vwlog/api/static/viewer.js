// The vwlog viewer: speaks only the public HTTP API; every text from a log is inserted as text.
const app = document.getElementById("app");
const errorBox = document.getElementById("error");
const tokenInput = document.getElementById("token");
/** The language of the server's sentences: the page's ?lang=, else the browser's
 * Accept-Language (the server negotiates; each page of events says which it chose). */
const pageLang = new URLSearchParams(location.search).get("lang");
const withLang = (params) => { if (pageLang) params.set("lang", pageLang); return params; };
/** The page's own words in the language the server negotiated for the page (its catalogs,
 * handed over in <meta name="vwlog-words">); English, the key, where a word has no entry. */
const WORDS = JSON.parse(document.querySelector('meta[name="vwlog-words"]')?.content || "{}");
export function word(text, values = {}) {
  return (WORDS[text] ?? text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

/** The bearer token: kept in this tab's sessionStorage (and in memory while the page lives),
 * never in localStorage, which every tab of the site shares and which outlives the browser's
 * session; closing the tab forgets it. The page's help says so. */
const TOKEN_KEY = "vwlog-token";
function readToken() {
  try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch { return ""; }
}
let bearer = readToken();
try { localStorage.removeItem(TOKEN_KEY); } catch { /* storage refused: nothing was kept there */ }
tokenInput.value = bearer;
tokenInput.addEventListener("change", () => {
  bearer = tokenInput.value.trim();
  try {
    if (bearer) sessionStorage.setItem(TOKEN_KEY, bearer); else sessionStorage.removeItem(TOKEN_KEY);
  } catch { /* storage refused: the token lives in memory until the page is left */ }
  route();
});
/** The headers that present the token, if there is one. */
function authHeaders() {
  return bearer ? { Authorization: `Bearer ${bearer}` } : {};
}

/** An element with attributes and children; strings become text nodes (never HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

async function api(path, options = {}) {
  const headers = { ...(options.headers || {}), ...authHeaders() };
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options = { ...options, body: JSON.stringify(options.json) };
  }
  const r = await fetch(path, { ...options, headers });
  const body = r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const message = (body && body.message) || `${r.status} ${r.statusText}`;
    throw new Error(`${path.split("?")[0]}: ${message}`);
  }
  return body;
}

function go(url) {
  history.pushState(null, "", url);
  route();
}
window.addEventListener("popstate", () => route());
document.addEventListener("click", (e) => {
  const a = e.target.closest("a");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
  // an HTML link, or a link inside a chart (an SVG ``a``: its href is not a string)
  const href = typeof a.href === "string" ? a.href : a.getAttribute("href");
  if (!href || (typeof a.target === "string" && a.target)) return;
  const url = new URL(href, location.href);
  if (url.origin === location.origin) {
    e.preventDefault();
    go(url.pathname + url.search);
  }
});

let keyHandler = null;
document.addEventListener("keydown", (e) => {
  if (keyHandler) keyHandler(e);
});

let me = { role: null, seat: null, match_id: null };
async function whoami() {
  const who = document.getElementById("who");
  me = { role: null, seat: null, match_id: null };
  if (bearer) {
    try {
      me = await api("/whoami");
    } catch (err) {
      showError(word("Error: {message}", { message: err.message }));
    }
  }
  who.textContent = me.role ? `${me.role}${me.seat ? " " + me.seat : ""}` : word("anonymous");
}

/** Aborted when the page is left: ends what a page follows (the stream of a live match). */
let pageAbort = new AbortController();

async function route() {
  pageAbort.abort();
  pageAbort = new AbortController();
  showError("");
  keyHandler = null;
  app.replaceChildren();
  await whoami();
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "m" && parts[1]) await replayPage(parts[1], parts[2]);
    else if (parts[0] === "record") await recordPage();
    else if (parts[0] === "stats-page") await statsPage();
    else await listPage();
  } catch (err) {
    showError(word("Error: {message}", { message: err.message }));
  }
}

// -- match list --------------------------------------------------------------------------

async function listPage() {
  const q = new URLSearchParams(location.search);
  const limit = 25;
  const offset = Number(q.get("offset") || 0);
  const form = el("form", { class: "filters", "aria-label": word("filters") },
    el("label", {}, word("Player") + " ", el("input", { name: "player", value: q.get("player") || "" })),
    el("label", {}, word("Since") + " ", el("input", { name: "since", type: "date", value: q.get("since") || "" })),
    el("label", {}, word("Victory") + " ", el("input", { name: "victory", value: q.get("victory") || "", size: 10 })),
    el("label", {}, word("Search") + " ", el("input", { name: "search", type: "search", value: q.get("search") || "" })),
    el("label", {}, el("input", { name: "flagged", type: "checkbox", checked: q.get("flagged") === "true" }), " " + word("flagged only")),
    el("label", {}, el("input", { name: "forks", type: "checkbox", checked: q.get("forks") !== "false" }), " " + word("show forks")),
    el("button", { type: "submit" }, word("Filter")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const p = new URLSearchParams();
    for (const k of ["player", "since", "victory", "search"]) if (f.get(k)) p.set(k, f.get(k));
    if (f.get("flagged")) p.set("flagged", "true");
    if (!f.get("forks")) p.set("forks", "false");
    go(`/?${p}`);
  });
  app.append(el("h1", {}, word("Matches")), form);
  const p = new URLSearchParams({ offset, limit });
  for (const k of ["player", "since", "victory", "finished", "min_turns", "max_turns"]) if (q.get(k)) p.set(k, q.get(k));
  if (q.get("flagged")) p.set("flagged", "true");
  if (q.get("forks") === "false") p.set("forks", "false");
  // filters a chart of the statistics links with, beside the form's
  const more = [q.get("finished") === "true" && word("finished"), q.get("min_turns") && word("at least {count} turns", { count: q.get("min_turns") }),
    q.get("max_turns") && word("at most {count} turns", { count: q.get("max_turns") })].filter(Boolean);
  if (more.length) app.append(el("p", { id: "more-filters" }, word("Also: {filters}", { filters: more.join(", ") }) + " ", el("a", { href: "/" }, word("(clear)"))));
  let page;
  const search = (q.get("search") || "").toLowerCase();
  if (search) {
    // the search is over ids and players of the filtered list, page by page from the API
    p.set("offset", 0);
    p.set("limit", 1000);
    page = await api(`/matches?${p}`);
    const hits = page.matches.filter((m) =>
      [m.match_id, ...m.players].some((s) => String(s).toLowerCase().includes(search)));
    page = { total: hits.length, offset, limit, matches: hits.slice(offset, offset + limit) };
  } else {
    page = await api(`/matches?${p}`);
  }
  const rows = page.matches.map((m) => el("tr", {},
    el("td", {}, el("a", { href: `/m/${encodeURIComponent(m.match_id)}` }, m.match_id)),
    el("td", {}, m.players.join(", ")),
    el("td", {}, m.created || "-"),
    el("td", {}, String(m.turns)),
    el("td", {}, String(m.events)),
    el("td", {}, m.winner ? `${m.winner} (${m.victory})` : "-"),
    el("td", {}, m.violations ? `${m.violations} ⚑` : "0"),
    el("td", {}, m.parent ? word("fork of {parent} at {seq}", { parent: m.parent, seq: m.fork_at }) : "")));
  app.append(el("table", {},
    el("thead", {}, el("tr", {}, ["Match", "Players", "Date", "Turns", "Events", "Winner", "Violations", "Fork"].map((h) => el("th", {}, word(h))))),
    el("tbody", {}, rows)));
  const nav = el("p", { class: "controls" }, word("{total} matches, {first}–{last}", { total: page.total, first: offset + 1, last: Math.min(offset + limit, page.total) }) + " ");
  const link = (o, text) => { const n = new URLSearchParams(q); n.set("offset", o); return el("a", { href: `/?${n}` }, text); };
  if (offset > 0) nav.append(link(Math.max(0, offset - limit), word("← previous")), " ");
  if (offset + limit < page.total) nav.append(link(offset + limit, word("next →")));
  app.append(nav);
}

// -- replay --------------------------------------------------------------------------------

function cardText(c) {
  return `${c.name || c.card || "?"} (${c.id})`;
}

/** What a property in play is, beside its name: a Follower's ATK/DEF/VIT, else its type (a
 * Relic or a Rune guarding a Territory has no stats). */
function propertyStats(f) {
  if (f.type === "RELIC") return `(${word("Relic")})`;
  if (f.type === "RUNE") return `(${word("Rune")})`;
  const stat = (v) => (v === null || v === undefined ? "–" : String(v));
  if (f.atk === null || f.atk === undefined) return f.type ? `(${f.type})` : "";
  return `${stat(f.atk)}/${stat(f.def)}/${stat(f.vit)}`;
}

function followerNode(f) {
  const follower = f.atk !== null && f.atk !== undefined;
  const cls = ["card", !follower && "attached", f.slid && "slid", f.fatigued && "fatigued", f.damage && "damaged"].filter(Boolean).join(" ");
  const flags = [f.slid && word("slid"), f.fatigued && word("fatigued"), f.attacking && word("attacking {target}", { target: f.attacking }), f.blocking && word("blocking {target}", { target: f.blocking })].filter(Boolean);
  return el("span", { class: cls, "data-id": f.id, "data-type": f.type || null },
    `${f.name || f.card || f.id} ${propertyStats(f)}`.trim(),
    f.damage ? el("span", { class: "dmg" }, ` −${f.damage}`) : null,
    flags.length ? ` [${flags.join(", ")}]` : "");
}

/** An object on the register, in words: who, what, from which card, at what. */
function registerText(r) {
  if (typeof r === "string") return r;
  if (r.description) return r.description;
  const parts = [r.controller ? `${r.controller}:` : "", r.kind || "", r.card ? cardText(r.card) : "",
    r.skill ? `[${r.skill}]` : "", r.target ? `→ ${r.target}` : "", r.territory ? `@ ${r.territory}` : ""];
  return parts.filter(Boolean).join(" ") || String(r.id || "?");
}

/** The board of a game without views (the service answers with its fields, `fields`): each
 * field and its value, as they are. */
function fieldsNode(b) {
  const status = el("div", { class: "status", id: "status" },
    el("span", {}, word("Seq {seq}", { seq: b.seq })), el("span", {}, word("Full record")));
  const shown = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  const fields = el("dl", { id: "fields", "data-game": b.game },
    Object.entries(b.fields).flatMap(([name, value]) => [el("dt", {}, name), el("dd", { "data-field": name }, shown(value))]));
  return el("div", { id: "board-inner" }, status, fields);
}

function boardNode(b) {
  if (b.fields) return fieldsNode(b);
  const status = el("div", { class: "status", id: "status" },
    el("span", {}, word("Seq {seq}", { seq: b.seq })), el("span", {}, word("Turn {turn}", { turn: b.turn ?? "-" })),
    el("span", {}, word("Active {player}", { player: b.active ?? "-" })), el("span", {}, word("Phase {phase}", { phase: b.phase ?? "-" })),
    el("span", {}, word("Step {step}", { step: b.step ?? "-" })), el("span", {}, word("Priority {player}", { player: b.priority ?? "-" })),
    b.viewer ? el("span", {}, word("Viewing as {player}", { player: b.viewer })) : el("span", {}, word("Full record")));
  const register = el("div", { class: "register", id: "register" }, el("strong", {}, word("Register:") + " "),
    b.register && b.register.length
      ? el("ol", {}, b.register.map((r) => el("li", { "data-id": (r && r.id) || null }, registerText(r))))
      : word("empty"));
  const players = (b.players || []).map((p) => el("section", { class: `player${p.active ? " active" : ""}`, "data-player": p.id },
    el("h3", {}, `${p.id}${p.team ? " " + word("(team {team})", { team: p.team }) : ""}${p.out ? " — " + word("out") : ""}`),
    el("div", { class: "row" },
      el("span", {}, word("Gold {gold}", { gold: p.gold })), el("span", {}, word("Honor {honor}", { honor: p.honor })), el("span", {}, word("VP {vp}", { vp: p.vp })),
      el("span", {}, word("Deck {count}", { count: p.deck_size })), p.subdeck_size ? el("span", {}, word("Subdeck {count}", { count: p.subdeck_size })) : null,
      el("span", {}, word("Graveyard {count}", { count: (p.graveyard || []).length }))),
    el("div", { class: "hand", "data-hand": p.id }, word("Hand ({count}):", { count: p.hand_size }) + " ",
      p.hand ? p.hand.map((c) => el("span", { class: "card" }, cardText(c))) : el("span", { class: "hidden-hand" }, word("hidden"))),
    el("div", { class: "row" }, (p.territories || []).map((t) => el("div", { class: `territory${t.slid ? " slid" : ""}`, "data-id": t.id },
      el("div", {}, el("strong", {}, t.name), ` DEF ${t.defense}`, t.damage ? el("span", { class: "dmg" }, ` −${t.damage}`) : "",
        ` · ${t.capacity_used}/${t.capacity} · +${t.gold_produce}g`, t.slid ? ` [${word("slid")}]` : ""),
      el("div", {}, (t.guards || []).map(followerNode))))),
    (p.return_home || []).length ? el("div", {}, word("Returning home:") + " ", p.return_home.map(followerNode)) : null,
    (p.stray || []).length ? el("div", {}, word("Stray:") + " ", p.stray.map(followerNode)) : null));
  const known = (b.known || []).length
    ? el("div", { id: "known" }, word("Hidden cards seen:") + " ", b.known.map((k) => el("span", { class: "card", "data-id": k.id, title: k.how || null },
      `${k.name || "?"} (${k.id})${k.where ? " — " + k.where : ""}`))) : null;
  return el("div", { id: "board-inner" }, status, register, players, known);
}

async function replayPage(matchId, seqText) {
  const meta = await api(`/matches/${encodeURIComponent(matchId)}`);
  const head = meta.events;
  const q = new URLSearchParams(location.search);
  const state = {
    over: isOver(meta),
    // recorded by this service (started live, or a fork), not an uploaded log: the only
    // matches the service appends decisions to (an upload's summary names its ``seal``)
    recordedHere: meta.seal === null || meta.seal === undefined,
    seq: seqText === undefined ? head : Math.max(0, Math.min(head, Number(seqText) || 0)),
    head, headHash: meta.head_hash, viewer: q.get("player") || "",
    // the marks of the timeline (from /timeline): what the scrubber shows and jumps to
    turns: [], combat: [], points: new Set(), pointList: [], violations: [],
    // what the side panels redraw when another seq is shown
    onShow: [],
  };
  const enc = encodeURIComponent(matchId);
  const scrub = el("input", { id: "scrub", type: "range", min: 0, max: head, value: state.seq, "aria-label": word("timeline") });
  const marks = el("canvas", { id: "marks", width: 1000, height: 14, "aria-hidden": "true" });
  const seqLabel = el("span", { id: "seq-label" });
  const viewSel = el("select", { id: "viewpoint", "aria-label": word("viewpoint") },
    el("option", { value: "" }, word("Full record")), meta.players.map((p) => el("option", { value: p }, word("As {player}", { player: p }))));
  // a player's token on its match sees only its seat: the service answers with that view
  const seatOnly = me.role === "player" && me.match_id === matchId;
  if (seatOnly) state.viewer = me.seat;
  viewSel.value = state.viewer;
  viewSel.disabled = seatOnly;
  const btn = (id, text, title, fn) => el("button", { id, type: "button", title, onclick: fn }, text);
  const board = el("div", { id: "board", "aria-live": "polite" });
  const eventList = el("ol", { class: "events", id: "events" });
  const side = el("div", { class: "side" });
  const forkBtn = btn("fork", word("Fork from here"), word("fork the match at this priority point"), () => forkHere());

  app.append(el("h1", {}, matchId, meta.parent ? ` (${word("fork of {parent} at {seq}", { parent: meta.parent, seq: meta.fork_at })})` : ""),
    el("div", { class: "replay" },
      el("div", {},
        el("div", { class: "timeline" }, scrub, marks),
        el("div", { class: "controls" },
          btn("first", word("First"), word("first event (Home)"), () => show(0)),
          btn("back", "◀", word("step back (←)"), () => show(state.seq - 1)),
          btn("forward", "▶", word("step forward (→)"), () => show(state.seq + 1)),
          btn("last", word("Last"), word("last event (End)"), () => show(state.head)),
          btn("next-violation", word("Next violation"), "(v)", () => jump(state.violations.map((v) => v[0]))),
          btn("next-combat", word("Next combat step"), "(c)", () => jump(state.combat)),
          btn("next-turn", word("Next turn"), "(t)", () => jump(state.turns.map((t) => t[0]))),
          seqLabel, viewSel, forkBtn,
          el("a", { href: `/stats-page#${enc}` }, word("statistics"))),
        board,
        el("h2", {}, word("Events")), eventList),
      side));

  /** Go to the first seq of ``seqs`` (increasing) after the one shown. */
  function jump(seqs) {
    let lo = 0, hi = seqs.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (seqs[mid] > state.seq) hi = mid; else lo = mid + 1; }
    if (lo < seqs.length) show(seqs[lo]);
  }

  let boardRequest = 0;
  async function drawBoard() {
    const mine = ++boardRequest;
    const p = new URLSearchParams({ seq: state.seq });
    if (state.viewer) p.set("player", state.viewer);
    try {
      const b = await api(`/matches/${enc}/board?${p}`);
      if (mine !== boardRequest) return;
      board.replaceChildren(boardNode(b));
      board.dataset.seq = String(b.seq);
      showError("");
    } catch (err) {
      if (mine === boardRequest) showError(word("Error: {message}", { message: err.message }));
    }
  }

  // the events are read only where they are shown, in blocks of BLOCK seqs, each once per view
  const BLOCK = 100;
  const blocks = new Map();
  function block(b) {
    const key = `${state.viewer}|${b}`;
    if (!blocks.has(key)) {
      const p = withLang(new URLSearchParams({ after: b * BLOCK, limit: BLOCK }));
      if (state.viewer) p.set("player", state.viewer);
      blocks.set(key, api(`/matches/${enc}/events?${p}`)
        .then((page) => { eventList.lang = page.lang; return page.events; })
        .catch((err) => { blocks.delete(key); throw err; }));
    }
    return blocks.get(key);
  }

  let eventsRequest = 0;
  async function drawEvents() {
    const mine = ++eventsRequest;
    const seq = state.seq;
    const from = Math.max(1, seq - 40);
    const to = Math.min(state.head, seq + 40);
    const wanted = [];
    if (to >= from) {
      for (let b = Math.floor((from - 1) / BLOCK); b <= Math.floor((to - 1) / BLOCK); b++) wanted.push(block(b));
    }
    let pages;
    try {
      pages = await Promise.all(wanted);
    } catch (err) {
      if (mine === eventsRequest) showError(word("Error: {message}", { message: err.message }));
      return;
    }
    if (mine !== eventsRequest) return;
    const bySeq = new Map(pages.flat().map((e) => [e.seq, e]));
    const items = [];
    for (let s = from; s <= to; s++) {
      const e = bySeq.get(s);
      items.push(el("li", { "data-seq": s, class: [s === seq && "current", e && e.violations.length && "violation"].filter(Boolean).join(" ") || null },
        el("a", { href: `/m/${enc}/${s}${location.search}` }, e ? e.description : "…"),
        e && e.violations.length ? ` — ${e.violations.map((v) => v.rule).join(", ")}` : ""));
    }
    eventList.setAttribute("start", String(from));
    eventList.replaceChildren(...items);
    eventList.dataset.seq = String(seq);
    const cur = eventList.querySelector(".current");
    if (cur) eventList.scrollTop = cur.offsetTop - eventList.offsetTop - eventList.clientHeight / 2;
  }

  function drawMarks() {
    const ctx = marks.getContext("2d");
    ctx.clearRect(0, 0, marks.width, marks.height);
    const x = (s) => (s / Math.max(1, state.head)) * (marks.width - 1);
    ctx.fillStyle = "#8d99ae";
    for (const s of state.pointList) ctx.fillRect(x(s), 9, 1, 5);
    ctx.fillStyle = "#2b2d42";
    for (const [s] of state.turns) ctx.fillRect(x(s), 0, 2, 14);
    ctx.fillStyle = "#d90429";
    for (const [s] of state.violations) ctx.fillRect(x(s) - 2, 0, 5, 14);
  }

  function show(seq, push = true) {
    seq = Math.max(0, Math.min(state.head, seq));
    state.seq = seq;
    scrub.value = String(seq);
    seqLabel.textContent = `${seq} / ${state.head}`;
    updateFork();
    if (push) history.replaceState(null, "", `/m/${enc}/${seq}${location.search}`);
    // the board first: the event list's page is read once the board is asked for and drawn
    drawBoard().finally(drawEvents);
    for (const f of state.onShow) f(seq);
  }

  function updateFork() {
    forkBtn.disabled = !(state.points.has(state.seq) && state.seq < state.head);
    forkBtn.hidden = !(me.role === "organiser" || me.role === "judge");
  }

  async function forkHere() {
    try {
      const f = await api(`/matches/${enc}/forks`, { method: "POST", json: { at: state.seq } });
      go(`/m/${encodeURIComponent(f.match_id)}`);
    } catch (err) {
      showError(word("Error: {message}", { message: err.message }));
    }
  }

  let scrubTimer = null;
  scrub.addEventListener("input", () => {
    seqLabel.textContent = `${scrub.value} / ${state.head}`;
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(() => show(Number(scrub.value)), 60);
  });
  viewSel.addEventListener("change", () => {
    state.viewer = viewSel.value;
    const p = new URLSearchParams(location.search);
    if (state.viewer) p.set("player", state.viewer); else p.delete("player");
    history.replaceState(null, "", `/m/${enc}/${state.seq}${p.size ? "?" + p : ""}`);
    drawEvents();
    drawBoard();
  });
  keyHandler = (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if ((tag === "input" && e.target !== scrub) || tag === "textarea" || tag === "select") return;
    const keys = { ArrowRight: () => show(state.seq + 1), ArrowLeft: () => show(state.seq - 1),
      Home: () => show(0), End: () => show(state.head),
      v: () => document.getElementById("next-violation").click(), c: () => document.getElementById("next-combat").click(),
      t: () => document.getElementById("next-turn").click() };
    const f = keys[e.key];
    if (f && !e.ctrlKey && !e.altKey && !e.metaKey) { e.preventDefault(); f(); }
  };

  async function loadTimeline() {
    const t = await api(`/matches/${enc}/timeline`);
    state.turns = t.turns;
    state.combat = t.combat_steps;
    state.pointList = t.priority_points;
    state.points = new Set(t.priority_points);
    state.violations = t.violations;
    drawMarks();
  }

  show(state.seq, false);
  await loadTimeline();
  document.body.dataset.eventsLoaded = "true";
  updateFork();

  /** Take in a new head (an append from this page, or one the match's stream announced): the
   * scrubber, the timeline and the events; the board follows the head when it showed the
   * head; then the verdict and the play panel, all of them for the new head. Calls made while
   * one runs are folded into one more run after it. */
  let refreshing = null, again = false;
  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const m = await api(`/matches/${enc}`);
          if (m.events === state.head && m.head_hash === state.headHash && isOver(m) === state.over) continue;
          const atHead = state.seq === state.head;
          state.head = m.events;
          state.headHash = m.head_hash;
          state.over = isOver(m);
          scrub.max = String(state.head);
          blocks.clear();
          await loadTimeline();
          if (atHead) show(state.head);
          else { seqLabel.textContent = `${state.seq} / ${state.head}`; updateFork(); drawEvents(); }
          // (the play panel follows the board where the board follows the head)
          await Promise.all([panels.verdict?.refresh(), atHead ? null : panels.play?.refresh()]);
        } catch (err) {
          if (!pageAbort.signal.aborted) showError(word("Error: {message}", { message: err.message }));
        }
      } while (again && !pageAbort.signal.aborted);
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  const panels = {};
  panels.verdict = await judgePanel(matchId, side, state, show);
  panels.play = await playPanel(matchId, side, state, refresh);
  // a match in progress is followed: every append, from this page or any other, moves the head
  if (!state.over) follow(matchId, state.head, pageAbort.signal, () => refresh());
}

/** Whether a match summary says the match is over. */
function isOver(m) {
  return Boolean(m.winner) || Boolean(m.victory && m.victory !== "UNFINISHED");
}

/** Resolves when the tab is shown again, or ``signal`` is aborted. */
function shown(signal) {
  return new Promise((resolve) => {
    const done = () => {
      document.removeEventListener("visibilitychange", check);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const check = () => { if (!document.hidden) done(); };
    document.addEventListener("visibilitychange", check);
    signal.addEventListener("abort", done, { once: true });
    check();
  });
}

/** Resolves after ``ms`` milliseconds, or once ``signal`` is aborted. */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true });
  });
}

const FOLLOW_RETRY = 5000;
/** Milliseconds before the stream of a match is asked again after the network failed. */

/** Follow a match's Server-Sent Events (``/matches/{id}/stream``) from ``after`` until
 * ``signal`` is aborted or the match is over, calling ``onAppend`` once per batch of records
 * read. Read with fetch, not EventSource, so that the token goes in a header. A hidden tab
 * lets its stream go (a browser keeps few connections to one site) and takes it up again,
 * from the last seq it read, when it is shown. */
async function follow(matchId, after, signal, onAppend) {
  const enc = encodeURIComponent(matchId);
  while (!signal.aborted) {
    if (document.hidden) { await shown(signal); continue; }
    const conn = new AbortController();
    const stop = () => conn.abort();
    const hide = () => { if (document.hidden) conn.abort(); };
    signal.addEventListener("abort", stop, { once: true });
    document.addEventListener("visibilitychange", hide);
    let over = false, ended = false, failed = false;
    try {
      const r = await fetch(`/matches/${enc}/stream?after=${after}`, { headers: authHeaders(), signal: conn.signal, cache: "no-store" });
      if (!r.ok || !r.body) return;  // refused (the token, the match): nothing to follow
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
        let appended = false, end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = "message", data = "";
          for (const line of message.split("\n")) {
            if (line.startsWith("event:")) type = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(5).trim();
          }
          try {
            if (type === "record") { after = Math.max(after, Number(JSON.parse(data).seq) || after); appended = true; }
            else if (type === "end") { ended = true; over = Boolean(JSON.parse(data).over); }
          } catch { /* a message that is not JSON: skipped */ }
        }
        if (appended && !signal.aborted) onAppend(after);
      }
    } catch {
      // let go on purpose (the page left, the tab hidden), else the network failed
      failed = !conn.signal.aborted;
    } finally {
      signal.removeEventListener("abort", stop);
      document.removeEventListener("visibilitychange", hide);
    }
    if (over) return;
    // the stream's own end (after its time) is taken up at once; a cut or a failure, later
    if (failed || (!ended && !conn.signal.aborted)) await pause(FOLLOW_RETRY, signal);
  }
}

// -- judge ---------------------------------------------------------------------------------

const INTEGRITY_AUTO = 3000;
/** Up to this many events, the hash chain is checked as the match opens. */

const ruleCache = new Map();
async function ruleText(id) {
  if (!ruleCache.has(id)) {
    ruleCache.set(id, api(`/rules/${encodeURIComponent(id)}`).then((r) => r.text || r.title).catch(() => ""));
  }
  return ruleCache.get(id);
}

/** How bad a verdict is: a record is drawn by the worst verdict any door gives it. */
const VERDICT_RANK = { OK: 0, INCOMPLETE: 1, ILLEGAL: 2, UNTRUSTED: 3 };

/** The one verdict of an answer of ``/validation`` or ``/integrity`` and its reason: its
 * ``verdict`` and ``reason`` fields; from ``ok`` only where an older service gives none
 * (``bad``: what ``ok: false`` means there). */
function verdictOf(body, bad) {
  if (body && typeof body.verdict === "string" && body.verdict in VERDICT_RANK) {
    return { verdict: body.verdict, reason: typeof body.reason === "string" ? body.reason : "" };
  }
  return { verdict: body && body.ok === false ? bad : "OK", reason: "" };
}

function worst(...verdicts) {
  return verdicts.filter(Boolean).reduce((a, b) => (VERDICT_RANK[b.verdict] > VERDICT_RANK[a.verdict] ? b : a));
}

/** The CSS class of a verdict: green only for OK, red for ILLEGAL and UNTRUSTED. */
function verdictClass(v) {
  return v === "OK" ? "verdict-ok" : v === "INCOMPLETE" ? "verdict-incomplete" : "verdict-bad";
}

async function judgePanel(matchId, side, state, show) {
  const enc = encodeURIComponent(matchId);
  const box = el("section", { id: "judge" }, el("h2", {}, word("Validation")));
  side.append(box);
  // the verdict, the violations and the hash chain: redrawn for every new head
  const notice = el("p", { id: "judge-notice", hidden: true });
  const verdictLine = el("p", { id: "verdict", class: "verdict", hidden: true });
  const violations = el("div", { class: "violations", id: "violations" });
  // the hash chain is recomputed on every check (never kept): on a long match, only on request
  const integrity = el("p", { id: "integrity", class: "verdict" });
  box.append(notice, verdictLine, violations, integrity);
  let chainAsked = false;
  let drawn = 0;

  async function validation() {
    try {
      return { report: await api(`/matches/${enc}/validation?${withLang(new URLSearchParams())}`) };
    } catch (err) { return { error: err }; }
  }
  async function chain() {
    try {
      return { chain: await api(`/matches/${enc}/integrity?${withLang(new URLSearchParams())}`) };
    } catch (err) { return { error: err }; }
  }

  function drawChain(c, head, mine) {
    if (mine !== drawn) return;
    integrity.classList.remove("verdict-ok", "verdict-incomplete", "verdict-bad");
    if (c.error) {
      integrity.replaceChildren(word("Integrity: not available ({reason})", { reason: c.error.message }));
      return;
    }
    const integ = c.chain;
    const v = verdictOf(integ, "UNTRUSTED");
    // this line speaks of the chain and the seal: broken where a link is, or where they make
    // the record UNTRUSTED; an unsealed record is INCOMPLETE; the rules' ILLEGAL is the
    // verdict line's (the chain under it may hold)
    const broken = Boolean(integ.broken) || v.verdict === "UNTRUSTED";
    const cls = broken ? "verdict-bad" : v.verdict === "OK" ? "verdict-ok" : v.verdict === "INCOMPLETE" ? "verdict-incomplete" : null;
    if (cls) integrity.classList.add(cls);
    integrity.dataset.verdict = v.verdict;
    integrity.dataset.head = String(head);
    const said = (broken || v.verdict === "INCOMPLETE") && v.reason && !(integ.broken && integ.broken.reason === v.reason);
    integrity.replaceChildren(word("Integrity: {status} ({records} records checked, up to event {seq})", { status: broken ? word("BROKEN") : word("ok"), records: integ.records, seq: head }),
      integ.broken ? " — " + word("first broken link at seq {seq}: {reason}", { seq: integ.broken.seq ?? "?", reason: integ.broken.reason }) : "",
      said ? el("span", { class: "reason", lang: pageLang || null }, " — " + v.reason) : "");
  }

  async function checkIntegrity() {
    chainAsked = true;
    const mine = ++drawn;
    const head = state.head;
    integrity.replaceChildren(word("Integrity: checking…"));
    const c = await chain();
    drawChain(c, head, mine);
    if (c.chain) drawVerdict(null, c.chain, mine);
  }

  let lastReport = null;
  /** The verdict line: the worst of what ``/validation`` and ``/integrity`` say (one verdict:
   * they agree), with its reason in the page's language. */
  function drawVerdict(report, integ, mine) {
    if (mine !== drawn) return;
    if (report) lastReport = report;
    report = report || lastReport;
    if (!report && !integ) return;
    const v = worst(report && verdictOf(report, "ILLEGAL"), integ && verdictOf(integ, "UNTRUSTED"));
    verdictLine.hidden = false;
    verdictLine.className = `verdict ${verdictClass(v.verdict)}`;
    verdictLine.dataset.verdict = v.verdict;
    verdictLine.dataset.head = String(state.head);
    verdictLine.replaceChildren(el("strong", {}, word("Verdict: {verdict}", { verdict: v.verdict })),
      v.reason ? el("span", { class: "reason", lang: pageLang || null }, " — " + v.reason) : "",
      report ? el("br") : "",
      report ? (report.violations.length ? word("{count} violation(s).", { count: report.violations.length }) : word("No violations.")) : "",
      report && report.winner ? " " + word("Winner {winner} ({victory}).", { winner: report.winner, victory: report.victory }) : "");
  }

  async function refresh() {
    const mine = ++drawn;
    const head = state.head;
    // a player sees only its seat while its match is in progress: the report names both hands
    if (me.role === "player" && me.match_id === matchId && !state.over) {
      notice.hidden = false;
      notice.textContent = word("Not available: the report names both hands; a player's token sees only its seat while the match is in progress.");
      verdictLine.hidden = true;
      violations.replaceChildren();
      integrity.replaceChildren();
      return;
    }
    notice.hidden = true;
    const autoChain = chainAsked || head <= INTEGRITY_AUTO;
    const [v, c] = await Promise.all([validation(), autoChain ? chain() : null]);
    if (mine !== drawn) return;
    if (v.error) {
      notice.hidden = false;
      notice.textContent = word("Not available: {reason}", { reason: v.error.message });
    }
    const report = v.report || null;
    lastReport = report;
    drawVerdict(report, c && c.chain, mine);
    if (report) {
      const texts = await Promise.all(report.violations.map((x) => ruleText(x.rule)));
      if (mine !== drawn) return;
      violations.replaceChildren(...report.violations.map((x, i) =>
        el("button", { type: "button", "data-seq": x.seq, onclick: () => show(x.seq) },
          el("strong", {}, word("{rule} at {seq}", { rule: x.rule, seq: x.seq })), " — ", el("span", { lang: pageLang || null }, x.message), el("br"),
          el("small", { class: "rule-text" }, texts[i]))));
    } else violations.replaceChildren();
    if (c) drawChain(c, head, mine);
    else {
      integrity.replaceChildren(word("Integrity: not checked yet ({count} events)", { count: head }) + " ",
        el("button", { type: "button", id: "check-integrity", onclick: checkIntegrity }, word("Check the hash chain")));
    }
  }
  await refresh();
  const panel = { refresh };
  if (me.role === "player" && me.match_id === matchId && !state.over) return panel;
  // diff of two records
  const other = el("input", { id: "diff-other", placeholder: word("other match id"), "aria-label": word("other match id") });
  const out = el("div", { id: "diff-out" });
  box.append(el("h2", {}, word("Diff")), el("form", { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const d = await api(`/diff?${withLang(new URLSearchParams({ a: matchId, b: other.value }))}`);
      const dv = d.divergence;
      const side = (x, list) => el("div", {}, el("h3", {}, x.match_id),
        dv ? el("ol", { start: dv.seq }, [dv[list === "then_a" ? "a" : "b"], ...(dv[list] || [])].filter(Boolean).map((e) =>
          el("li", {}, e.text, e.violations && e.violations.length ? ` — ${e.violations.map((v) => v.rule).join(", ")}` : ""))) : el("p", {}, word("no divergence")));
      out.replaceChildren(el("p", { id: "diff-summary" }, (dv ? word("{outcome}: {common} events in common, first divergence at {seq} ({position})", { outcome: d.outcome, common: d.common, seq: dv.seq, position: dv.position }) : word("{outcome}: {common} events in common", { outcome: d.outcome, common: d.common }))),
        el("div", { class: "diff" }, side(d.a, "then_a"), side(d.b, "then_b")));
      if (dv) show(Math.min(dv.seq, state.head));
    } catch (err) { out.replaceChildren(el("p", {}, err.message)); }
  } }, other, el("button", {}, word("Compare"))), out);
  // rulings
  const rulings = el("ul", { id: "rulings" });
  try {
    for (const r of await api(`/matches/${enc}/rulings`)) rulings.append(el("li", {}, `${r.kind || ""} ${r.reason || JSON.stringify(r)}`));
  } catch { /* not visible */ }
  const kind = el("select", { name: "kind", "aria-label": word("ruling kind") }, ["WARNING", "BACK_UP", "PARTIAL_FIX", "GAME_LOSS"].map((k) => el("option", {}, k)));
  const reason = el("textarea", { name: "reason", "aria-label": word("reason"), rows: 2 });
  box.append(el("h2", {}, word("Rulings")), rulings, el("form", { id: "ruling-form", onsubmit: async (e) => {
    e.preventDefault();
    const body = { kind: kind.value, reason: reason.value };
    if (kind.value === "BACK_UP") body.back_to = state.seq;
    try {
      await api(`/matches/${enc}/rulings`, { method: "POST", json: body });
      rulings.append(el("li", {}, `${body.kind} ${body.reason}`));
      reason.value = "";
    } catch (err) { showError(word("Error: {message}", { message: err.message })); }
  } }, kind, reason, el("button", {}, word("Record ruling (judges)"))));
  return panel;
}

// -- play: fork and record -----------------------------------------------------------------

/** Whether the token presented may make the decision awaited from ``player`` in this match:
 * an organiser or a judge, or the player's own seat. */
function mayDecide(matchId, player) {
  if (me.role === "organiser" || me.role === "judge") return true;
  return me.role === "player" && me.match_id === matchId && Boolean(player) && me.seat === player;
}

async function playPanel(matchId, side, state, refresh) {
  const enc = encodeURIComponent(matchId);
  const box = el("section", { id: "play" }, el("h2", {}, word("Play")));
  side.append(box);
  const awaited = el("p", { id: "awaited" });
  const why = el("p", { id: "no-append", class: "note", hidden: true });
  const legal = el("div", { class: "legal", id: "legal" });
  const consequences = el("ol", { class: "consequences", id: "consequences" });
  box.append(awaited, why, legal, el("h2", {}, word("Last append")), consequences);
  async function choose(a, option) {
    try {
      // the words of the notation, as `vwlog play` takes them; at the head the page showed
      const r = await api(`/matches/${enc}/decisions`, { method: "POST", json: { decisions: [option.words], expected_seq: a.seq } });
      // the appended events as the event list says them: the decision, then what the rules inserted
      const p = withLang(new URLSearchParams({ after: r.first_seq - 1, limit: Math.max(1, Math.min(1000, r.appended)) }));
      const page = await api(`/matches/${enc}/events?${p}`);
      consequences.lang = page.lang;
      consequences.setAttribute("start", String(r.first_seq));
      consequences.replaceChildren(...page.events.map((e) => el("li", { "data-seq": e.seq, class: e.decision ? "decision" : "inserted" },
        e.decision ? "" : el("span", { class: "tag" }, word("rules:") + " "), e.description)));
    } catch (err) { showError(word("Error: {message}", { message: err.message })); }
    // the head moved (or another writer moved it first): the page takes in the head either way
    await refresh();
  }

  /** Why no decision can be appended here, or null where one can. */
  function refusal(a) {
    if (!state.recordedHere) return word("This log was uploaded: decisions are appended only to matches recorded live here (or their forks).");
    if (state.over) return word("The match is finished: nothing more is appended.");
    if (a.seq !== state.head) return word("Decisions are appended at the last event ({head}); this is event {seq}.", { head: state.head, seq: a.seq });
    if (!mayDecide(matchId, a.player)) {
      return me.role ? word("This token may not make {player}'s decision.", { player: a.player }) : word("Present a token to append decisions.");
    }
    return null;
  }

  let asked = 0;
  /** The decision awaited after the seq the board shows (not after the last event), and its
   * legal decisions as buttons where an append would be accepted. */
  async function load(seq = state.seq) {
    const mine = ++asked;
    // the legal decisions are listed only where they may be appended
    const offer = state.recordedHere && !state.over && seq === state.head && (me.role === "organiser" || me.role === "judge" || (me.role === "player" && me.match_id === matchId));
    let a;
    try {
      a = await api(`/matches/${enc}/awaited?${withLang(new URLSearchParams({ at: seq, limit: offer ? 60 : 0 }))}`);
    } catch (err) {
      if (mine !== asked) return;
      legal.replaceChildren();
      why.hidden = true;
      awaited.textContent = word("Not available: {reason}", { reason: err.message });
      return;
    }
    if (mine !== asked) return;
    awaited.dataset.seq = String(a.seq);
    legal.replaceChildren();
    why.hidden = true;
    if (a.over) { awaited.textContent = word("The match is over."); return; }
    if (!a.player) { awaited.textContent = word("After event {seq}: no decision is awaited (the rules act next).", { seq: a.seq }); return; }
    const no = refusal(a);
    if (no || !offer) {
      awaited.textContent = word("After event {seq}: {player} to decide ({kind}, {rule}).", { seq: a.seq, player: a.player, kind: a.kind, rule: a.rule });
      why.textContent = no || "";
      why.hidden = !no;
      return;
    }
    const count = a.options.length + (a.truncated ? "+" : "");
    awaited.textContent = word("After event {seq}: {player} to decide ({kind}, {rule}); {count} legal:", { seq: a.seq, player: a.player, kind: a.kind, rule: a.rule, count });
    a.options.forEach((o, i) => legal.append(el("button", { type: "button", "data-type": a.legal[i].type, "data-words": o.words, onclick: () => choose(a, o) },
      el("span", { class: "sentence", lang: pageLang || null }, o.text), " ", el("code", {}, o.words))));
    if (a.truncated) legal.append(el("p", {}, word("(more legal decisions than shown)")));
  }
  // each seq shown asks once the scrubber rests on it
  let timer = null;
  state.onShow.push((seq) => { clearTimeout(timer); timer = setTimeout(() => load(seq), 80); });
  await load();
  return { refresh: () => load(state.seq) };
}

async function recordPage() {
  const decks = await api("/pools/decks");
  // the ids the service accepts for a new match: a letter or digit, then letters, digits, _ . : ~ -
  const id = el("input", { name: "match_id", required: true, maxlength: 200, pattern: "[A-Za-z0-9][A-Za-z0-9_.:~\\-]*", value: `live-${Date.now()}` });
  const seats = [0, 1].map((i) => el("select", { name: `deck${i}`, "aria-label": word("deck of {player}", { player: `p${i + 1}` }) }, decks.map((d) => el("option", {}, d))));
  seats[1].selectedIndex = Math.min(1, decks.length - 1);
  // no seed: the service shuffles a live match's decks with a CSPRNG
  app.append(el("h1", {}, word("Record a live match")), el("form", { id: "record-form", class: "filters", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const m = await api("/live", { method: "POST", json: { match_id: id.value, decks: seats.map((s) => s.value) } });
      go(`/m/${encodeURIComponent(m.match_id)}`);
    } catch (err) { showError(word("Error: {message}", { message: err.message })); }
  } }, el("label", {}, word("Match id") + " ", id), el("label", {}, "p1 ", seats[0]), el("label", {}, "p2 ", seats[1]),
  el("button", {}, word("Start"))),
  el("p", { class: "note", id: "shuffle-note" }, word("The service shuffles the decks with a cryptographic random source; no seed is chosen here.")));
}

// -- statistics ----------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element; strings become text nodes (never markup), attributes are set as values. */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return node;
}

const pct = (x) => (x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)}%`);
const num = (x) => (x === null || x === undefined ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(1));
const LABEL_W = 190;
const clip = (text, n = 28) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** A figure: a heading, the chart, a note and the chart's numbers as a table. */
function figure(id, heading, chart, note, headers, rows) {
  return el("figure", { id, class: "chart" },
    el("h2", {}, heading), chart, note ? el("p", { class: "note" }, note) : null,
    headers ? el("details", {}, el("summary", {}, word("Table")),
      el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
        el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))))) : null);
}

/** Wrap a chart mark in a link (an SVG ``a``) when it has one. */
function linked(href, label, ...marks) {
  return href ? svg("a", { href, "aria-label": label }, svg("title", {}, label), ...marks) : svg("g", {}, svg("title", {}, label), ...marks);
}

/** Horizontal bars: ``rows`` of {label, value, text, href}. */
function barChart(rows, xlabel) {
  const w = 640, bar = 22, top = 8, h = top + rows.length * bar + 30;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const plot = w - LABEL_W - 90;
  return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": xlabel, class: "plot" },
    rows.map((r, i) => {
      const y = top + i * bar;
      const len = (r.value / max) * plot;
      return linked(r.href, `${r.label}: ${r.text}`,
        svg("text", { x: LABEL_W - 6, y: y + 15, "text-anchor": "end" }, clip(r.label)),
        svg("rect", { x: LABEL_W, y: y + 3, width: Math.max(1, len), height: bar - 6, class: r.muted ? "bar muted" : "bar" }),
        svg("text", { x: LABEL_W + len + 4, y: y + 15 }, r.text));
    }),
    svg("text", { x: LABEL_W + plot / 2, y: h - 6, "text-anchor": "middle", class: "axis" }, xlabel));
}

/** Win rates with their 95 % intervals on a 0–1 scale, one row each, and a dashed reference. */
function intervalChart(rows, reference, xlabel) {
  const w = 640, row = 22, top = 8, h = top + rows.length * row + 40;
  const plot = w - LABEL_W - 20;
  const x = (v) => LABEL_W + v * plot;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": xlabel, class: "plot" },
    ticks.map((t) => svg("g", {},
      svg("line", { x1: x(t), x2: x(t), y1: top, y2: h - 30, class: "grid" }),
      svg("text", { x: x(t), y: h - 18, "text-anchor": "middle", class: "axis" }, `${t * 100}%`))),
    svg("line", { x1: x(reference), x2: x(reference), y1: top, y2: h - 30, class: "reference" }),
    rows.map((r, i) => {
      const y = top + i * row + row / 2;
      return linked(r.href, `${r.label}: ${pct(r.rate)} (95% CI ${pct(r.lo)}–${pct(r.hi)}, n=${r.n})`,
        svg("text", { x: LABEL_W - 6, y: y + 4, "text-anchor": "end" }, clip(`${r.label} (n=${r.n})`)),
        r.n ? svg("line", { x1: x(r.lo), x2: x(r.hi), y1: y, y2: y, class: "whisker" }) : null,
        r.n ? svg("circle", { cx: x(r.rate), cy: y, r: 4, class: "dot" }) : null);
    }),
    svg("text", { x: LABEL_W + plot / 2, y: h - 4, "text-anchor": "middle", class: "axis" }, xlabel));
}

/** Vertical bars over ranges: ``rows`` of {low, high, value, href}. */
function histogram(rows, xlabel, ylabel) {
  const w = 640, h = 220, left = 40, bottom = 36, plot = w - left - 10;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const bw = rows.length ? plot / rows.length : plot;
  return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": `${ylabel} by ${xlabel}`, class: "plot" },
    svg("text", { x: 4, y: 12, class: "axis" }, ylabel),
    rows.map((r, i) => {
      const bh = (r.value / max) * (h - bottom - 20);
      const range = r.low === r.high ? `${r.low}` : `${r.low}–${r.high}`;
      return linked(r.href, `${range} ${xlabel}: ${r.value} ${ylabel}`,
        svg("rect", { x: left + i * bw + 1, y: h - bottom - bh, width: Math.max(1, bw - 2), height: bh, class: "bar" }),
        svg("text", { x: left + i * bw + bw / 2, y: h - bottom - bh - 3, "text-anchor": "middle" }, String(r.value)),
        svg("text", { x: left + i * bw + bw / 2, y: h - bottom + 14, "text-anchor": "middle", class: "axis" }, range));
    }),
    svg("text", { x: left + plot / 2, y: h - 4, "text-anchor": "middle", class: "axis" }, xlabel));
}

/** One line per series over the turns: ``series`` of {name, points: [[x, y]]}. */
function lineChart(series, xlabel) {
  const w = 640, h = 90, left = 60, plot = w - left - 10;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const x0 = Math.min(...xs, 0), x1 = Math.max(...xs, 1);
  const x = (v) => left + ((v - x0) / Math.max(1, x1 - x0)) * plot;
  return el("div", {}, series.map((s) => {
    const ys = s.points.map((p) => p[1]);
    const lo = Math.min(0, ...ys), hi = Math.max(1, ...ys);
    const y = (v) => h - 18 - ((v - lo) / (hi - lo)) * (h - 28);
    return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": `${s.name} by ${xlabel}`, class: "plot" },
      svg("text", { x: 4, y: 14, class: "axis" }, s.name),
      svg("text", { x: 4, y: 30, class: "axis" }, `max ${num(hi)}`),
      svg("line", { x1: left, x2: w - 10, y1: y(0), y2: y(0), class: "grid" }),
      svg("polyline", { points: s.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "), class: "line" }),
      svg("text", { x: left, y: h - 2, class: "axis" }, `${xlabel} ${x0}`),
      svg("text", { x: w - 10, y: h - 2, "text-anchor": "end", class: "axis" }, `${xlabel} ${x1}`));
  }));
}

async function statsPage() {
  const q = new URLSearchParams(location.search);
  const minN = Math.max(1, Number(q.get("min_n")) || 10);
  app.append(el("h1", {}, word("Statistics")));
  const r = await api(`/stats/report?min_n=${minN}`);
  const list = await api("/matches?limit=1000");
  const c = r.corpus;
  const form = el("form", { class: "filters", id: "stats-form", onsubmit: (e) => {
    e.preventDefault();
    go(`/stats-page?min_n=${encodeURIComponent(form.elements.min_n.value)}`);
  } }, el("label", {}, word("Rank cards played at least") + " ", el("input", { name: "min_n", type: "number", min: 1, value: minN, size: 5 }), " " + word("times")),
  el("button", {}, word("Show")));
  app.append(el("p", { id: "corpus-summary" },
    word("{matches} matches ({finished} finished, {unfinished} unfinished), {sides} player-matches, {flagged} with violations.", { matches: c.matches, finished: c.finished, unfinished: c.unfinished, sides: c.sides, flagged: c.with_violations })),
  form);

  const victories = r.victory_types.map((v) => ({ label: v.victory, value: v.matches, text: `${v.matches} (${pct(v.share)})`,
    href: `/?victory=${encodeURIComponent(v.victory)}`, muted: v.victory === "UNFINISHED" }));
  const reference = (() => {
    const seats = r.win_rate.by_seat;
    const n = seats.reduce((a, w) => a + w.n, 0);
    return n ? seats.reduce((a, w) => a + w.wins, 0) / n : 0.5;
  })();
  const win = (label, w, href) => ({ label, n: w.n, rate: w.rate ?? 0, lo: w.ci95_low ?? 0, hi: w.ci95_high ?? 0, href });
  const winRows = (rows) => rows.map((w) => [w.label, String(w.n), pct(w.rate), `${pct(w.lo)}–${pct(w.hi)}`]);
  const winHeaders = ["", "n", word("win rate"), word("95% CI")];
  const refNote = word("Finished matches. Whiskers: Wilson 95% intervals; dashed line: the mean win rate ({rate}).", { rate: pct(reference) });
  const seats = r.win_rate.by_seat.map((w) => win(word("seat {seat}", { seat: w.seat }), w, `/?player=${encodeURIComponent(w.seat)}`));
  const orders = r.win_rate.by_turn_order.map((w) => win(w.label, w));
  const factions = r.win_rate.by_faction.map((w) => win(w.faction, w));
  const cardsById = new Map(r.cards.map((x) => [x.card, x]));
  const cards = r.top_cards.map((id) => cardsById.get(id)).filter(Boolean).map((x) => win(x.name, x.played));
  const turns = r.length.turns;
  const buckets = turns.histogram.map((b) => ({ low: b.low, high: b.high, value: b.matches,
    href: `/?finished=true&min_turns=${b.low}&max_turns=${b.high}` }));
  const MATCH_BARS = 60;
  const longest = [...list.matches].sort((a, b) => b.events - a.events || String(a.match_id).localeCompare(String(b.match_id)))
    .slice(0, MATCH_BARS).map((m) => ({ label: m.match_id, value: m.events, muted: m.violations > 0,
      text: m.winner ? word("{events} events, {turns} turns, won by {winner}", { events: m.events, turns: m.turns ?? "?", winner: m.winner }) : word("{events} events, {turns} turns", { events: m.events, turns: m.turns ?? "?" }), href: `/m/${encodeURIComponent(m.match_id)}` }));
  const shown = longest.length;
  const tempo = ["gold", "honor", "vp"].map((k) => ({ name: word("mean {resource}", { resource: k === "vp" ? "VP" : k }), points: r.tempo.map((t) => [t.turn, t[`${k}_mean`] ?? 0]) }));

  app.append(
    figure("victory-chart", word("Victory types"), barChart(victories, word("matches")), word("Each bar lists its matches."),
      [word("victory"), word("matches"), word("share")], r.victory_types.map((v) => [v.victory, String(v.matches), pct(v.share)])),
    figure("seat-chart", word("Win rate by seat"), intervalChart(seats, reference, word("win rate (95% CI)")), refNote, winHeaders, winRows(seats)),
    figure("order-chart", word("Win rate by turn order"), intervalChart(orders, reference, word("win rate (95% CI)")), refNote, winHeaders, winRows(orders)),
    figure("faction-chart", word("Win rate by faction"), intervalChart(factions, reference, word("win rate (95% CI)")), refNote, winHeaders, winRows(factions)),
    figure("length-chart", word("Match length"), histogram(buckets, word("turns"), word("matches")),
      word("Finished matches (n={n}). Turns: mean {turns_mean}, median {turns_median}. Events: mean {events_mean}, median {events_median}. Each bar lists its matches.", { n: turns.n, turns_mean: num(turns.mean), turns_median: num(turns.median), events_mean: num(r.length.events.mean), events_median: num(r.length.events.median) }),
      [word("turns"), word("matches")], buckets.map((b) => [b.low === b.high ? String(b.low) : `${b.low}–${b.high}`, String(b.value)])),
    figure("tempo-chart", word("Tempo: mean resources at the end of each turn"), lineChart(tempo, word("turn")),
      word("Each point averages the player-matches that reached the end of that turn."),
      [word("turn"), "n", "gold", "honor", "VP"], r.tempo.map((t) => [String(t.turn), String(t.n), num(t.gold_mean), num(t.honor_mean), num(t.vp_mean)])),
    figure("cards-chart", word("Top cards by win rate when played (n ≥ {n})", { n: r.min_n }), intervalChart(cards, reference, word("win rate when played (95% CI)")),
      word("Ranked by the lower end of the interval, so a high rate on little evidence does not outrank a solid one."),
      winHeaders, winRows(cards)),
    figure("chart", word("Events per match"), barChart(longest, word("events")),
      (shown < list.total ? word("The {shown} longest of {total} matches; the length chart and the match list hold every one.", { shown, total: list.total }) + " " : "") + word("Grey: with violations. Each bar opens its match."),
      null, null));
}

route();
