// The Tichu web table: a plain script speaking the protocol of docs/web.md.
// The server sends this player's observation, its events and, for every seat it acts
// for, the legal actions; the page only ever offers those. Server text is always set
// with textContent, never parsed as HTML.
"use strict";

const S = {
  ws: null,
  connected: false,
  retry: 500,
  nextId: 1,
  callbacks: new Map(), // request id -> function(reply)
  variants: [],
  bots: [],
  levels: [], // the bots people choose by level (easy, medium, hard, expert), weakest first
  botWords: {},
  defaultBot: null, // the bot the server names its default (a level's name)
  stateAt: 0, // when the last state came (performance.now()): the countdowns start there
  tables: [],
  tableId: null, // the table this page shows (from the address: #table=ID)
  player: null, // our player at that table, or null when watching
  events: [], // our event stream so far
  state: null, // the last state message
  selected: {}, // seat -> Set of hand indexes
  plan: {}, // seat -> {target: [hand indexes]}: the push being put together
  handKey: {}, // seat -> the cards the selection was made in
  showPlays: false, // the list of legal plays is open
  collecting: null, // the timer of an automatic collect
  typed: "", // card code being typed
  typedAt: 0,
  passTimer: null,
  bombMenu: null, // the seat whose choice of bombs is open
};

// How long a won trick stays before it is collected for a person (others may bomb).
const COLLECT_PAUSE = 1200;
const SUITS = { j: "◆", s: "♠", p: "♣", t: "★" };
const SUIT_NAMES = { j: "Jade", s: "Sword", p: "Pagoda", t: "Star" };
// Special cards: the face (short enough for a small card) and the name.
const SPECIALS = {
  MJ: ["1", "Mah Jong"],
  DOG: ["Dog", "Dog"],
  PH: ["Ph", "Phoenix"],
  DR: ["Dr", "Dragon"],
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (key === "style") Object.assign(node.style, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.startsWith("data")) node.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value);
    else if (key === "aria") node.setAttribute("aria-label", value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// --------------------------------------------------------------------------- connection

function send(message, callback) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    status("not connected: trying again…", true);
    return;
  }
  const id = S.nextId++;
  if (callback) S.callbacks.set(id, callback);
  S.ws.send(JSON.stringify({ ...message, id }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.connected = true;
    S.retry = 500;
    $("connection").textContent = "";
    send({ type: "variants" });
    send({ type: "tables" });
    follow();
  };
  ws.onclose = () => {
    S.connected = false;
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 8000);
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
}

function saved(tableId) {
  try {
    return JSON.parse(localStorage.getItem("tichu.seat." + tableId) || "null");
  } catch (error) {
    return null;
  }
}

function tableLink(tableId) {
  return `${location.origin}${location.pathname}#table=${tableId}`;
}

// Follow the table of the address: as our player if this browser holds its token.
function follow() {
  const match = /table=([0-9a-zA-Z_-]+)/.exec(location.hash);
  const tableId = match ? match[1] : null;
  if (tableId !== S.tableId) {
    S.tableId = tableId;
    S.events = [];
    S.state = null;
    S.selected = {};
    S.chat = [];
    renderChat();
    S.plan = {};
    closeDialogs();
  }
  $("lobby").hidden = tableId !== null;
  $("table-view").hidden = tableId === null;
  $("table-tools").hidden = tableId === null;
  if (tableId === null) {
    S.player = null;
    document.title = "Tichu";
    $("table-title").textContent = "";
    if (S.connected) send({ type: "tables" });
    if (S.connected) send({ type: "records" });
    return;
  }
  if (!S.connected) return;
  const seat = saved(tableId);
  if (seat) {
    send({ type: "resume", table: tableId, token: seat.token, since: S.events.length });
  } else {
    S.player = null;
    send({ type: "watch", table: tableId, since: S.events.length });
  }
}

function receive(message) {
  const callback = message.id !== undefined ? S.callbacks.get(message.id) : undefined;
  if (callback) S.callbacks.delete(message.id);
  switch (message.type) {
    case "variants":
      S.variants = message.variants;
      S.bots = message.bots;
      S.levels = (message.levels || []).filter((b) => message.bots.includes(b));
      S.botWords = message.bot_descriptions || {};
      S.defaultBot = message.default_bot || null;
      renderVariants();
      break;
    case "chat":
      onChat(message);
      break;
    case "records":
      S.records = message.records;
      renderRecords();
      break;
    case "tables":
      S.tables = message.tables;
      renderTables();
      break;
    case "seated":
      S.player = message.player;
      if (message.token) {
        localStorage.setItem(
          "tichu.seat." + message.table,
          JSON.stringify({ token: message.token, player: message.player }),
        );
      }
      break;
    case "moved":
      S.player = message.player;
      {
        const seat = saved(message.table);
        if (seat) localStorage.setItem("tichu.seat." + message.table, JSON.stringify({ ...seat, player: message.player }));
      }
      break;
    case "state":
      onState(message);
      break;
    case "error":
      status(message.message, true);
      if (message.code === "bad_token" && S.tableId && saved(S.tableId)) {
        localStorage.removeItem("tichu.seat." + S.tableId);
        S.player = null;
        send({ type: "watch", table: S.tableId, since: S.events.length });
      }
      break;
    case "ack":
      status("");
      break;
  }
  if (callback) callback(message);
}

function status(text, error = false) {
  const node = $("status");
  node.textContent = text;
  node.className = error ? "error" : "";
  node.dataset.code = error ? "error" : "";
}

function onState(message) {
  if (message.table.id !== S.tableId) return;
  const have = S.events.length;
  if (message.events_from > have) {
    // A gap (should not happen): ask for the whole stream again.
    S.events = [];
    follow();
    return;
  }
  const fresh = message.events.slice(have - message.events_from);
  S.events.push(...fresh);
  S.state = message;
  // The state names whose view it is: "You" follows it, so the first drawing after a sit
  // (which may come before or after the 'seated' answer) already speaks to the person.
  S.player = message.player;
  S.stateAt = performance.now();
  render();
  feedback(fresh);
}

// --------------------------------------------------------------------------- lobby

function botWords(name) {
  return S.botWords[name] || name;
}

// The options of a bot menu: the levels first by name, then every other bot by its
// engine name ("bots: " before each name in the lobby's menu).
function botOptions(prefix = "") {
  const option = (b) => el("option", { value: b, text: prefix + b, title: botWords(b) });
  const others = S.bots.filter((b) => !S.levels.includes(b));
  if (!S.levels.length) return others.map(option);
  return [
    el("optgroup", { label: "Levels" }, ...S.levels.map(option)),
    others.length ? el("optgroup", { label: "Other bots" }, ...others.map(option)) : null,
  ].filter(Boolean);
}

function renderVariants() {
  const select = $("variant");
  const current = select.value || "standard";
  select.replaceChildren(...S.variants.map((v) => el("option", { value: v.name, text: v.title })));
  select.value = S.variants.some((v) => v.name === current) ? current : S.variants[0]?.name;
  renderSizes();
  const fill = $("fill");
  fill.replaceChildren(
    el("option", { value: "", text: "free for friends (share the link)" }),
    ...botOptions("bots: "),
  );
  fill.value = S.bots.includes(S.defaultBot) ? S.defaultBot : "";
  fill.onchange = () => ($("fill-word").textContent = fill.value ? botWords(fill.value) : "");
  fill.onchange();
  $("bot-list").replaceChildren(
    ...S.bots.flatMap((b) => [el("dt", { text: b }), el("dd", { text: botWords(b) })]),
  );
}

// A bot's name with the word the server gives on it ("search: plans by playing ...").
function renderSizes() {
  const variant = S.variants.find((v) => v.name === $("variant").value);
  if (!variant) return;
  $("players").replaceChildren(
    ...variant.sizes.map((n) => el("option", { value: n, text: String(n) })),
  );
  $("players").value = variant.players;
  $("players").disabled = variant.sizes.length < 2;
  $("variant-description").textContent = variant.description;
}

function renderTables() {
  const body = $("tables").querySelector("tbody");
  const words = {
    waiting: "waiting for players",
    playing: "playing",
    over: "finished",
    failed: "stopped",
    abandoned: "abandoned: everyone left",
  };
  $("no-tables").hidden = S.tables.length > 0;
  body.replaceChildren(
    ...S.tables.map((t) => {
      const free = t.seating.filter((s) => s.kind === "free").length;
      // People by name, bots counted by kind: "Ann, Bob, 2 bots (heuristic)".
      const bots = {};
      for (const s of t.seating) if (s.kind === "bot") bots[s.name] = (bots[s.name] || 0) + 1;
      const people = [
        ...t.seating.filter((s) => s.kind !== "free" && s.kind !== "bot").map((s) => s.name),
        ...Object.entries(bots).map(([name, n]) => (n > 1 ? `${n} bots (${name})` : `bot (${name})`)),
      ];
      return el(
        "tr",
        { dataTable: t.id },
        el("td", { class: "name-cell", text: t.variant_title || t.variant }),
        el("td", { text: free ? `${words[t.status]} · ${free} free` : words[t.status] || t.status }),
        el("td", { class: "name-cell", text: people.join(", ") || "nobody yet", title: people.join(", ") }),
        el(
          "td",
          {},
          el(
            "button",
            { class: "small", dataOpen: t.id, onclick: () => (location.hash = "table=" + t.id) },
            free > 0 && t.status === "waiting" ? "join" : "watch",
          ),
        ),
      );
    }),
  );
}

function sit(tableId, player, name, done) {
  const message = { type: "sit", table: tableId };
  if (name) message.name = name;
  if (player !== undefined && player !== null) message.player = player;
  send(message, (reply) => {
    if (reply.type === "seated") {
      if (location.hash !== "#table=" + tableId) location.hash = "table=" + tableId;
      else follow();
    }
    if (done) done(reply);
  });
}

function createTable(event) {
  event.preventDefault();
  const name = $("name").value.trim();
  if (!name) {
    status("give your name to sit down", true);
    $("name").focus();
    return;
  }
  localStorage.setItem("tichu.name", name);
  const variant = S.variants.find((v) => v.name === $("variant").value);
  const players = Number($("players").value);
  const overrides = players !== variant.players ? { players } : {};
  const bot = $("fill").value;
  const bots = {};
  if (bot) for (let p = 1; p < players; p++) bots[String(p)] = bot;
  send({ type: "create", variant: variant.name, overrides, bots }, (reply) => {
    if (reply.type === "created") sit(reply.table.id, 0, name);
  });
}

// --------------------------------------------------------------------------- cards

function cardFace(code) {
  const special = SPECIALS[code];
  if (special) return { rank: special[0], suit: null, name: special[1], cls: "special " + code.toLowerCase() };
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  return { rank, suit: SUITS[suit], name: `${rank} of ${SUIT_NAMES[suit]}`, cls: suit };
}

function cardNode(code, attrs = {}) {
  const face = cardFace(code);
  const tag = attrs.onclick ? "button" : "span";
  return el(
    tag,
    {
      ...attrs,
      class: `card ${face.cls} ${attrs.class || ""}`,
      dataCard: code,
      title: face.name,
      aria: attrs.aria || face.name,
      type: tag === "button" ? "button" : null,
    },
    el("span", { class: "rank", text: face.rank }),
    el("span", { class: "suit", text: face.suit || face.name }),
  );
}

function cardRow(codes, cls = "small") {
  return el("span", { class: "cards" }, codes.map((c) => cardNode(c, { class: cls })));
}

// The card faces of a log line: the same suit symbols as the table, as text.
function inlineCards(codes) {
  const list = Array.isArray(codes) ? codes : String(codes).split(" ").filter(Boolean);
  return el(
    "span",
    { class: "inline-cards" },
    list.map((code) => {
      const face = cardFace(code);
      return el("span", { class: `face ${face.cls}`, dataCard: code, title: face.name },
        face.suit ? face.rank + face.suit : face.name);
    }),
  );
}

function rankWords(rank) {
  const names = { 1: "Mah Jong", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "Dragon" };
  return names[rank] || String(rank);
}

// The value a Phoenix has in a play: a single is half a rank over what it was played on.
function phoenixValue(play) {
  if (!play.cards.includes("PH")) return null;
  if (play.phoenix) return `Phoenix as ${play.phoenix}`;
  if (play.combination === "single" && play.rank !== null) {
    const whole = Math.floor(play.rank);
    return whole <= 1 ? "Phoenix as 1½" : `Phoenix as ${rankWords(whole)}½`;
  }
  return null;
}

function comboWords(play) {
  const kind = play.combination.replaceAll("_", " ");
  return kind;
}

// --------------------------------------------------------------------------- names

// A player's name at this table: a person's own, or the bot's kind with its place.
function playerName(player) {
  const place = S.state.table.seating[player];
  if (!place || place.kind === "free") return `Place ${player + 1}`;
  if (place.kind === "bot") return `Bot ${player + 1}`;
  return place.name;
}

function seatName(seat, you = true) {
  const view = S.state.observation;
  const player = view ? view.players[seat] : seat;
  if (player === null || player === undefined) return "Dummy";
  return you && player === S.player ? "You" : playerName(player);
}

// The names on a score line: a team's seats ("Ann & Carl"), a player, the dummy.
function lineName(line, view) {
  const text = view.score_lines[line] || `line ${line + 1}`;
  if (/^team /.test(text)) {
    const seats = view.teams.map((t, s) => (t === line ? s : null)).filter((s) => s !== null);
    return seats.map((s) => seatName(s, false)).join(" & ");
  }
  const player = /^player (\d+)$/.exec(text);
  if (player) return playerName(Number(player[1]));
  if (text === "dummy") return "Dummy";
  return text;
}

function myLines(view) {
  if (S.player === null) return new Set();
  const lines = new Set();
  view.score_lines.forEach((text, line) => {
    if (text === `player ${S.player}`) lines.add(line);
  });
  if (!lines.size && view.score_lines.some((t) => /^team /.test(t))) {
    for (const seat of view.seats) if (view.players[seat] === S.player) lines.add(view.teams[seat]);
  }
  return lines;
}

// --------------------------------------------------------------------------- render

function render() {
  const state = S.state;
  const table = state.table;
  const view = state.observation;
  document.body.dataset.version = state.version;
  document.body.dataset.player = state.player === null ? "" : state.player;
  document.body.dataset.tableStatus = table.status;
  renderExtras(table);
  $("table-title").textContent = table.variant_title || table.variant;
  renderJoin(table, view);
  if (!view) {
    document.body.dataset.phase = "waiting";
    $("felt").hidden = table.status !== "failed";
    $("mine").replaceChildren();
    $("score-strip").replaceChildren();
    $("center-text").textContent = table.error ? `This table has stopped: ${table.error}` : "";
    $("seats").replaceChildren();
    $("trick").replaceChildren();
    renderAway();
    document.title = table.status === "waiting" ? "Waiting for players · Tichu" : "Tichu";
    return;
  }
  $("felt").hidden = false;
  document.body.dataset.handsPlayed = view.hands_played;
  document.body.dataset.phase = view.phase;
  document.body.dataset.hand = view.hand_index;
  renderScoreStrip(view);
  document.documentElement.style.setProperty("--bar-height", `${$("bar").offsetHeight}px`);
  // The hand first: its height sets the felt's, which the name plates are placed on.
  renderMine(view, state.legal);
  renderSeats(view);
  renderAway();
  renderCenter(view, table);
  renderLog();
  renderTurn(view, state.legal);
  maybeShowSheet(view);
  autoCollect(view, state.legal);
}

function myWaitingSeat(view, legal) {
  return view.seats.find((s) => view.waiting_for.includes(s) && legal[String(s)]);
}

function renderTurn(view, legal) {
  const mine = myWaitingSeat(view, legal);
  const over = view.phase === "over" && !view.pending;
  document.body.dataset.myTurn = mine !== undefined ? "yes" : "";
  if (over) document.title = "Match over · Tichu";
  else if (mine !== undefined) document.title = "● Your turn · Tichu";
  else if (view.turn !== null && view.phase === "play") document.title = `${seatName(view.turn)} to play · Tichu`;
  else document.title = "Tichu";
}

// --------------------------------------------------------------------------- joining

function renderJoin(table, view) {
  const free = table.seating.filter((s) => s.kind === "free");
  const panel = $("join");
  panel.hidden = free.length === 0 || table.status === "failed";
  if (panel.hidden) return;
  const seated = S.player !== null;
  const taken = table.seating.length - free.length;
  $("join-text").textContent = view
    ? "A place is open to a newcomer: take it to play on (a bot plays it meanwhile)."
    : `${taken} of ${table.seating.length} places taken. The game starts when every place is taken` +
      (seated ? ": share the link with your friends, or fill the free places with bots." : ".");
  $("share-link").value = tableLink(table.id);
  const started = view !== null;
  const myTeam = S.player !== null ? table.seating[S.player]?.team : null;
  $("places").replaceChildren(
    ...table.seating.map((place) =>
      el(
        "li",
        { class: `place ${place.kind}` + (place.team !== null ? ` team-${place.team % 4}` : ""), dataPlace: place.player },
        el("span", { class: "place-number", text: `${place.player + 1}` }),
        el("span", {
          class: "name",
          text: place.kind === "free" ? "free" : place.kind === "bot" ? `Bot (${place.name})` : place.name,
          title: place.name || "",
        }),
        place.player === S.player ? el("span", { class: "badge you", text: "you" }) :
          place.team !== null && place.team === myTeam ? el("span", { class: "badge partner", text: "partner" }) : null,
        place.kind === "free" && !started
          ? el("button", {
              type: "button",
              class: "small take",
              dataTake: place.player,
              aria: `take place ${place.player + 1}`,
              onclick: () => takePlace(table, place.player),
              text: seated ? "move here" : "sit here",
            })
          : null,
      ),
    ),
  );
  $("teams").textContent = teamsText(table);
  $("join-form").hidden = seated;
  $("fill-form").hidden = !seated;
  if (!$("join-name").value) $("join-name").value = localStorage.getItem("tichu.name") || "";
  // The options are rebuilt with every state: the choice made is kept, else the default.
  const chosen = $("fill-bot").dataset.chosen;
  $("fill-bot").replaceChildren(...botOptions());
  $("fill-bot").value = S.bots.includes(chosen) ? chosen : S.bots.includes(S.defaultBot) ? S.defaultBot : S.bots[0];
  $("fill-bot").onchange = () => {
    $("fill-bot").dataset.chosen = $("fill-bot").value;
    $("fill-bot-word").textContent = botWords($("fill-bot").value);
  };
  $("fill-bot-word").textContent = botWords($("fill-bot").value);
  $("fill-button").onclick = () => {
    const token = saved(table.id)?.token;
    const bots = {};
    for (const place of free) bots[String(place.player)] = $("fill-bot").value;
    send({ type: "bots", table: table.id, bots, token });
  };
}

// "Teams: Ann & Bob against Carl & a free place" (fixed partnerships only).
function teamsText(table) {
  const teams = new Map();
  for (const place of table.seating) {
    if (place.team === null || place.team === undefined) return "";
    const name = place.kind === "free" ? "a free place" : place.kind === "bot" ? `Bot (${place.name})` : place.name;
    teams.set(place.team, [...(teams.get(place.team) || []), name]);
  }
  return "Teams: " + [...teams.values()].map((names) => names.join(" & ")).join(" against ");
}

// A free place clicked: a seated person moves there, anyone else sits down there.
function takePlace(table, player) {
  if (S.player !== null) {
    const token = saved(table.id)?.token;
    send({ type: "move", table: table.id, token, player });
    return;
  }
  const name = $("join-name").value.trim();
  if (!name) {
    status("give your name to take a place", true);
    $("join-name").focus();
    return;
  }
  localStorage.setItem("tichu.name", name);
  sit(table.id, player, name);
}

function joinTable(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) {
    status("give your name to take a place", true);
    $("join-name").focus();
    return;
  }
  localStorage.setItem("tichu.name", name);
  sit(S.tableId, null, name);
}

function copyLink() {
  const input = $("share-link");
  const done = () => {
    $("copy-link").textContent = "Copied";
    setTimeout(() => ($("copy-link").textContent = "Copy link"), 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, () => {
      input.select();
      document.execCommand("copy");
      done();
    });
  } else {
    input.select();
    document.execCommand("copy");
    done();
  }
}

// --------------------------------------------------------------------------- the table

function renderScoreStrip(view) {
  const mine = myLines(view);
  // With many score lines (Grand Seigneur) the bar shows ours and the leader's; the
  // score sheet has them all.
  let lines = view.scores.map((_, line) => line);
  if (lines.length > 4) {
    const leader = lines.reduce((a, b) => (view.scores[b] > view.scores[a] ? b : a), 0);
    lines = lines.filter((line) => mine.has(line) || line === leader);
  }
  $("score-strip").replaceChildren(
    ...lines.map((line) => [view.scores[line], line]).map(([score, line]) =>
      el(
        "span",
        { class: "score" + (mine.has(line) ? " mine" : ""), dataLine: line },
        el("span", { class: "who", text: lineName(line, view), title: lineName(line, view) }),
        el("b", { text: Words.number(score) }),
      ),
    ),
  );
}

// The seats in play order, ours at the bottom, the others around the table.
function seatOrder(view) {
  const n = view.hand_sizes.length;
  const first = view.seats.length ? view.seats[0] : 0;
  return Array.from({ length: n }, (_, i) => (first + i) % n);
}

function currentTrick() {
  // The plays and passes of the running trick, from the events (the observation has
  // the plays only): everything since the trick began.
  const view = S.state.observation;
  const entries = [];
  for (const event of S.events) {
    if (event.hand !== view.hand_index) continue;
    if (["trick_won", "lead_passed", "exchange_done", "hand_started"].includes(event.type)) entries.length = 0;
    else if (event.type === "played") entries.push({ kind: "play", ...event });
    // The seat whose play stands passes to take the trick: "You take the trick".
    else if (event.type === "passed") entries.push({ kind: entries.length && entries.filter((e) => e.kind === "play").pop()?.seat === event.seat ? "take" : "pass", seat: event.seat });
  }
  const plays = entries.filter((e) => e.kind === "play");
  if (plays.length !== view.trick.length) return view.trick.map((p) => ({ kind: "play", ...p }));
  return entries;
}

function lastTrickWon() {
  const view = S.state.observation;
  for (let i = S.events.length - 1; i >= 0; i--) {
    const event = S.events[i];
    if (event.hand !== view.hand_index) return null;
    if (event.type === "played") return null;
    if (event.type === "trick_won") return event;
  }
  return null;
}

function renderSeats(view) {
  const order = seatOrder(view);
  const n = order.length;
  const partnered = new Set(view.teams).size < n;
  const myTeam = view.seats.length ? view.teams[view.seats[0]] : null;
  const trick = currentTrick();
  const lastBySeat = {};
  for (const entry of trick) lastBySeat[entry.seat] = entry;
  const felt = $("felt");
  felt.classList.toggle("crowded", n > 6);
  // A narrow table (a phone) with few seats: the others on an arc over the upper part,
  // so that the trick has the whole width above our hand.
  felt.classList.toggle("narrow", isNarrow(felt, n));
  $("seats").replaceChildren(
    ...order.map((seat, k) => {
      const badges = [];
      if (view.titles[seat]) badges.push(el("span", { class: "badge title", text: view.titles[seat] }));
      if (view.calls[seat]) {
        const call = view.calls[seat].split("+").map((c) => (c === "grand_tichu" ? "Grand Tichu" : "Tichu")).join(" + ");
        badges.push(el("span", { class: "badge call", text: call }));
      }
      const place = view.out_order.indexOf(seat);
      if (place >= 0) badges.push(el("span", { class: "badge out", text: ordinal(place + 1) + " out" }));
      if (seat === view.dealer) badges.push(el("span", { class: "badge dealer", text: "dealer", title: "deals this hand" }));
      const away = awayWords(view.players[seat] === null ? null : S.state.table.seating[view.players[seat]]);
      if (away) badges.push(el("span", { class: "badge away", dataAway: view.players[seat], text: away.short, title: away.long }));
      const classes = ["seat"];
      if (view.waiting_for.includes(seat)) classes.push("waiting");
      if (view.turn === seat && view.phase === "play") classes.push("turn");
      if (view.seats.includes(seat)) classes.push("me");
      if (partnered && myTeam !== null && view.teams[seat] === myTeam && !view.seats.includes(seat)) classes.push("partner");
      if (partnered) classes.push("team-" + (view.teams[seat] % 4));
      if (view.top_seat === seat && view.trick.length) classes.push("top");
      const last = lastBySeat[seat];
      const place_ = view.players[seat] === null ? null : S.state.table.seating[view.players[seat]];
      const bot = place_ && place_.kind === "bot" ? place_.name : null;
      const faceUp = view.hands[seat] && !view.seats.includes(seat) ? view.hands[seat] : null;
      const shown = faceUp ? cardRow(Words.arrange(faceUp, handOrder()).map((i) => faceUp[i]), "tiny") : null;
      const role = view.seats.includes(seat) ? (view.players[seat] === null ? "your dummy" : "you") :
        classes.includes("partner") ? "partner" : null;
      return el(
        "div",
        {
          class: classes.join(" "),
          dataSeat: seat,
          aria: `${seatName(seat, false)}, ${view.hand_sizes[seat]} cards`,
        },
        el(
          "div",
          { class: "seat-head" },
          el("span", { class: "name", text: seatName(seat, false), title: seatName(seat, false) }),
        ),
        el(
          "div",
          { class: "seat-info" },
          role ? el("span", { class: "badge role", text: role }) : null,
          el("span", { class: "count", title: "cards in hand", aria: `${view.hand_sizes[seat]} cards in hand`, text: String(view.hand_sizes[seat]) }),
          bot ? el("span", { class: "badge bot", title: botWords(bot), text: bot }) : null,
          el("span", { class: "points", title: "card points won this hand", text: `${Words.number(view.won_points[seat])} pts` }),
          ...badges,
        ),
        last && last.kind === "pass" ? el("div", { class: "bubble pass", text: "pass" }) : null,
        view.waiting_for.includes(seat) && view.phase === "play" && view.turn === seat ? el("div", { class: "bubble turn", text: "to play" }) : null,
        shown,
      );
    }),
  );
  placeSeats(felt);
}

function isNarrow(felt, seats) {
  return (felt.clientWidth || 1) < 640 && seats <= 7;
}

// The name plates placed on the felt as it is now (drawn, or resized): around an
// ellipse, ours at the bottom and the next seat to its right (play order), or on a
// phone's arc; each plate inside the felt, clear of its edge (the largest plate sets
// the room: a plate with a badge more is taller).
function placeSeats(felt) {
  const plates = [...document.querySelectorAll("#seats .seat")];
  const n = plates.length;
  if (!n) return;
  const narrow = felt.classList.contains("narrow");
  const width = felt.clientWidth || 1;
  const height = felt.clientHeight || 1;
  const plateW = Math.max(...plates.map((p) => p.offsetWidth));
  const plateH = Math.max(...plates.map((p) => p.offsetHeight));
  const rx = Math.max(10, 50 - ((plateW / 2 + 8) / width) * 100);
  const ry = Math.max(10, 50 - ((plateH / 2 + 18) / height) * 100);
  const top = ((plateH / 2 + 10) / height) * 100;
  // The arc's ends at a third of the felt's height; on a short felt (two hands under
  // it) higher, down to a row along the top, to leave the trick room above our plate.
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const trickBottom = height - Math.max(0.13 * height, 5.2 * rem); // the CSS of #center
  const arcEnd = Math.min(0.36 * height, trickBottom - 90 - plateH / 2 - 16);
  const arcY = narrow ? Math.max(top, (arcEnd / height) * 100) : 50;
  const arcRy = narrow ? arcY - top : ry;
  plates.forEach((plate, k) => {
    let [x, y] = [50, 50 + ry];
    if (k > 0) {
      const angle = narrow ? 2 * Math.PI - (Math.PI * (k - 1)) / Math.max(1, n - 2) : Math.PI / 2 - (2 * Math.PI * k) / n;
      [x, y] = [50 + rx * Math.cos(angle), arcY + arcRy * Math.sin(angle)];
    }
    plate.style.left = `${x.toFixed(2)}%`;
    plate.style.top = `${y.toFixed(2)}%`;
  });
  clearOfPlates(felt, Number(plates[0].dataset.seat));
}

// The trick's area keeps clear of the name plates: on a phone's arc, below the plates
// (a short felt, under two hands, brings the arc's ends down to it); around an ellipse
// (any number of seats: at six the side plates stand level with the area's upper and
// lower rows), between the plates beside it (those level with it, their bubbles under
// them), a gap on each side.
function clearOfPlates(felt, bottom) {
  const center = $("center");
  center.style.left = center.style.right = center.style.top = "";
  const narrow = felt.classList.contains("narrow");
  const box = felt.getBoundingClientRect();
  const inner = box.left + felt.clientLeft;
  const innerTop = box.top + felt.clientTop;
  const middle = inner + felt.clientWidth / 2;
  const area = center.getBoundingClientRect();
  const gap = 8;
  const bubble = 16; // the "pass" and "to play" bubbles hang under a plate
  const plates = [...document.querySelectorAll("#seats .seat")];
  if (narrow) {
    const lowest = Math.max(0, ...plates.filter((p) => Number(p.dataset.seat) !== bottom).map((p) => p.getBoundingClientRect().bottom));
    if (lowest + bubble > area.top) center.style.top = `${Math.ceil(lowest + bubble - innerTop)}px`;
    newestInView();
    return;
  }
  let left = 0;
  let right = 0;
  for (const plate of plates) {
    const p = plate.getBoundingClientRect();
    if (p.bottom + bubble <= area.top || p.top >= area.bottom) continue; // above or below it
    if (p.right <= middle) left = Math.max(left, p.right - inner);
    else if (p.left >= middle) right = Math.max(right, inner + felt.clientWidth - p.left);
  }
  if (left) center.style.left = `${Math.ceil(left + gap)}px`;
  if (right) center.style.right = `${Math.ceil(right + gap)}px`;
  newestInView();
}

// A trick longer than its room scrolls: the newest play stays in view, the plays above
// it fade out at the top edge.
function newestInView() {
  const center = $("center");
  if (center.scrollHeight > center.clientHeight) center.scrollTop = center.scrollHeight;
  center.classList.toggle("scrolled", center.scrollTop > 0);
}

// --------------------------------------------------------------------------- leavers

// The seconds before a stand-in bot plays an away person's place, counted from the state.
function standInIn(place) {
  if (place.stand_in_in === null || place.stand_in_in === undefined) return null;
  return Math.max(0, Math.ceil(place.stand_in_in - (performance.now() - S.stateAt) / 1000));
}

// The bot that stands in for a leaver at this table, by its level's name ("medium"):
// the level the table's bots were seated as, else the server's default.
function standInName() {
  return (S.state && S.state.table.stand_in_bot) || S.defaultBot;
}

// The stand-in in words: "a medium bot", "an expert bot".
function standInBot() {
  const name = standInName() || "";
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name} bot`.replace(/ {2}/, " ");
}

// What a place whose person left shows: {short, long}, or null when nobody left it.
function awayWords(place) {
  if (!place) return null;
  const who = place.kind === "free" ? "This open place" : place.name;
  const bot = standInBot();
  if (place.stand_in) {
    return { short: "bot plays", long: place.kind === "free" ? `${bot[0].toUpperCase()}${bot.slice(1)} plays this open place until someone takes it.` : `${who} left: ${bot} plays for them until they return.` };
  }
  if (place.kind !== "human" || !place.away) return null;
  const seconds = standInIn(place);
  if (seconds === null) return { short: "away", long: `${who} is away.` };
  return { short: `away · bot in ${seconds} s`, long: `${who} left: ${bot} plays for them in ${seconds} s, until they return.` };
}

// The bar over the felt about the people who left, with what the seated may do.
function renderAway() {
  const bar = $("away");
  const table = S.state && S.state.table;
  const places = table && S.state.observation ? table.seating.filter((p) => awayWords(p)) : [];
  bar.hidden = places.length === 0;
  if (bar.hidden) return bar.replaceChildren();
  const seated = S.player !== null;
  bar.replaceChildren(
    ...places.map((place) =>
      el(
        "div",
        { class: "away-line", dataAwayPlace: place.player },
        el("span", { text: awayWords(place).long }),
        seated && place.kind === "human" && place.player !== S.player
          ? el("button", {
              type: "button",
              class: "small",
              dataReplace: "bot",
              title: `${standInBot()} takes ${place.name}'s place for the rest of the match`,
              onclick: () => send({ type: "replace", table: table.id, token: saved(table.id)?.token, player: place.player, bot: standInName() }),
              text: "Bot for good",
            })
          : null,
        seated && place.kind === "human" && place.player !== S.player
          ? el("button", {
              type: "button",
              class: "small",
              dataReplace: "open",
              title: "anyone with the link may take the place (a bot plays it meanwhile)",
              onclick: () => send({ type: "replace", table: table.id, token: saved(table.id)?.token, player: place.player }),
              text: "Open the place",
            })
          : null,
      ),
    ),
  );
}

// The countdowns go on between two states.
setInterval(() => {
  if (!S.state || !S.state.observation) return;
  if (!S.state.table.seating.some((p) => p.away && !p.stand_in && p.stand_in_in !== null)) return;
  renderAway();
  for (const node of document.querySelectorAll("[data-away]")) {
    const away = awayWords(S.state.table.seating[Number(node.dataset.away)]);
    if (away) node.textContent = away.short;
  }
}, 1000);

function ordinal(n) {
  return n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");
}

function pendingText(view) {
  if (!view.pending) return "";
  const what = {
    wish: ["make", "a wish"],
    give_trick: ["give", "the Dragon trick away"],
    give_lead: ["give", "the lead"],
    another_hand: ["decide", "as the Great Lord, whether another hand is played"],
  };
  const [verb, rest] = what[view.pending.kind] || [view.pending.kind.replaceAll("_", " "), ""];
  return `${Words.says(seatName(view.pending.seat), verb, rest)}…`;
}

function renderCenter(view, table) {
  let text = "";
  if (view.phase === "grand_tichu") text = "Grand Tichu? Each player decides before seeing the rest of the cards.";
  else if (view.phase === "exchange") text = "Exchange: give cards to the other players.";
  else if (view.phase === "over") text = view.pending ? "The hand is over." : "The match is over.";
  if (view.pending) text = pendingText(view);
  if (table.status === "failed") text = `This table has stopped: ${table.error}`;
  $("center-text").textContent = text;
  $("wish").textContent = view.wish ? `Wish: ${view.wish}` : "";
  const entries = [];
  for (const entry of view.phase === "play" || view.pending ? currentTrick() : []) {
    const last = entries[entries.length - 1];
    // Passes in a row make one entry: "Bob, Carl: pass".
    if (entry.kind === "pass" && last && last.kind === "pass") last.seats.push(entry.seat);
    else entries.push(entry.kind === "pass" ? { kind: "pass", seats: [entry.seat] } : entry);
  }
  const topIndex = entries.map((e) => e.kind).lastIndexOf("play");
  const nodes = entries.map((entry, i) => {
    if (entry.kind === "pass") {
      const who = entry.seats.map((seat, i) => (i ? Words.object(seatName(seat)) : seatName(seat))).join(", ");
      return el("div", { class: "entry pass", dataSeats: entry.seats.join(" ") }, el("span", { class: "who", text: `${who}: pass`, title: `${who}: pass` }));
    }
    if (entry.kind === "take") {
      const took = `${Words.says(seatName(entry.seat), "take", "the trick")}.`;
      return el("div", { class: "entry take", dataSeat: entry.seat }, el("span", { class: "who", text: took, title: took }));
    }
    const phoenix = phoenixValue(entry);
    return el(
      "div",
      { class: "entry play" + (i === topIndex ? " top" : ""), dataSeat: entry.seat },
      el("span", { class: "who", text: seatName(entry.seat) }),
      cardRow(entry.cards, i === topIndex ? "trick-top" : $("felt").clientWidth < 640 ? "tiny" : "small"),
      el("span", { class: "what", text: comboWords(entry) + (phoenix ? ` · ${phoenix}` : "") }),
    );
  });
  if (!nodes.length && view.phase === "play") {
    const won = lastTrickWon();
    if (won) {
      const to = won.to !== won.seat ? `, given to ${Words.object(seatName(won.to))}` : "";
      nodes.push(el("div", { class: "muted last-trick", text: `${seatName(won.seat)} took the trick (${Words.number(won.points)} pts)${to}.` }));
    }
    if (view.turn !== null) nodes.push(el("div", { class: "lead", text: `${seatName(view.turn)} to lead` }));
  }
  if (S.collecting) nodes.push(el("div", { class: "muted collecting", text: "Collecting the trick…" }));
  $("trick").replaceChildren(...nodes);
  // A trick longer than its room scrolls: the newest play stays in view.
  newestInView();
}

// --------------------------------------------------------------------------- your hand

// The hands of the seats this player acts for (the Threechu shuffler: its own and the
// dummy's), each with the actions the server lists for it.
function renderMine(view, legal) {
  const blocks = view.seats.map((seat) => {
    const cards = view.hands[seat] || [];
    const key = cards.join(" ");
    if (S.handKey[seat] !== key) {
      S.handKey[seat] = key;
      S.selected[seat] = new Set();
      S.plan[seat] = {};
    }
    const options = legal[String(seat)] || null;
    const waiting = view.waiting_for.includes(seat) && options;
    return el(
      "div",
      { class: "mine" + (waiting ? " waiting" : ""), dataMySeat: seat },
      view.seats.length > 1 ? el("div", { class: "mine-name", text: view.players[seat] === null ? "The dummy's hand" : "Your hand" }) : null,
      seat === view.seats[0] && cards.length > 1 ? orderNode() : null,
      handNode(seat, cards, options),
      exchanged(view, seat),
      options ? actionsNode(seat, cards, options, view) : el("div", { class: "actions idle muted", text: idleText(view, seat) }),
    );
  });
  $("mine").replaceChildren(...blocks);
}

function idleText(view, seat) {
  if (view.phase === "over" && !view.pending) return "The match is over.";
  if (view.hand_sizes[seat] === 0 && view.phase === "play") return "You are out: watch the others finish.";
  if (view.phase === "play" && view.turn !== null) return `Waiting for ${Words.object(seatName(view.turn))}…`;
  if (view.pending) return pendingText(view);
  return "Waiting for the others…";
}

// What the player's own seat gave and got in the exchange (given by the rules too, GS-6),
// shown until the first trick is won.
function exchanged(view, seat) {
  if (seat !== view.seats[0] || view.won_cards.some((count) => count > 0)) return null;
  const line = (what, cards) =>
    el(
      "div",
      { class: "exchanged" },
      el("span", { class: "muted", text: what }),
      ...Object.entries(cards).map(([other, codes]) =>
        el("span", { class: "given-to" }, el("span", { class: "who", text: seatName(Number(other)) }), cardRow(codes.split(" "), "tiny")),
      ),
    );
  if (!Object.keys(view.received).length && !Object.keys(view.pushed).length) return null;
  if (view.phase !== "play" && view.phase !== "exchange") return null;
  return el(
    "div",
    { class: "exchange-summary" },
    Object.keys(view.pushed).length ? line("Given:", view.pushed) : null,
    Object.keys(view.received).length ? line("Received:", view.received) : null,
  );
}

function pushable(seat, cards, options) {
  // Hand indexes the seat may push: the server's `push.cards`, less those planned.
  const left = [...options.push.cards];
  const planned = new Set(Object.values(S.plan[seat]).flat());
  const free = new Set();
  cards.forEach((code, i) => {
    const at = left.indexOf(code);
    if (at >= 0) {
      left.splice(at, 1);
      if (!planned.has(i)) free.add(i);
    }
  });
  return free;
}

// The order the hand is shown in (Words.ORDERS: high cards first, low cards first, by
// suit), as this browser last chose it.
function handOrder() {
  const order = localStorage.getItem("tichu.order");
  return order in Words.ORDERS ? order : "high";
}

function orderNode() {
  const names = Object.keys(Words.ORDERS);
  const order = handOrder();
  const next = names[(names.indexOf(order) + 1) % names.length];
  return el(
    "button",
    {
      type: "button",
      class: "small order",
      dataOrder: order,
      title: `cards shown ${Words.ORDERS[order]}; click: ${Words.ORDERS[next]}`,
      aria: `cards shown ${Words.ORDERS[order]}: show them ${Words.ORDERS[next]}`,
      onclick: () => {
        localStorage.setItem("tichu.order", next);
        render();
      },
    },
    "⇅",
    el("span", { class: "order-word", text: ` ${Words.ORDERS[order]}` }),
  );
}

function handNode(seat, cards, options) {
  const selected = S.selected[seat];
  const planned = new Set(Object.values(S.plan[seat] || {}).flat());
  const choosing = options && options.push ? pushable(seat, cards, options) : null;
  // Drawn in the chosen order; each card keeps its index in the hand (the selection's).
  return el(
    "div",
    { class: "hand", dataHand: seat, role: "group", aria: "your cards" },
    Words.arrange(cards, handOrder()).map((i) => {
      const code = cards[i];
      const enabled = options && (!choosing || choosing.has(i) || selected.has(i));
      return cardNode(code, {
        class: (selected.has(i) ? "selected" : "") + (planned.has(i) ? " given" : ""),
        dataIndex: i,
        disabled: !enabled,
        "aria-pressed": selected.has(i) ? "true" : "false",
        onclick: () => toggleCard(seat, i),
      });
    }),
  );
}

function toggleCard(seat, i) {
  const selected = S.selected[seat];
  if (selected.has(i)) selected.delete(i);
  else selected.add(i);
  render();
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

function act(action) {
  const { label, bomb, ...clean } = action;
  const seat = saved(S.tableId);
  if (!seat) return status("you are watching this table", true);
  cancelCollect();
  status("");
  send({ type: "act", token: seat.token, action: clean });
}

function fixedLabel(action, view) {
  switch (action.type) {
    case "grand_tichu":
      return action.call ? "Grand Tichu!" : "No Grand Tichu";
    case "tichu":
      return "Tichu!";
    case "pass":
      return view.top_seat === action.seat ? "Take the trick" : "Pass";
    case "wish":
      return action.rank === null ? "No wish" : action.rank;
    case "give_trick":
      return `Give it to ${seatName(action.to)}`;
    case "give_lead":
      return `Lead: ${seatName(action.to)}`;
    case "another_hand":
      return action.more ? "Another hand" : "End the match";
    default:
      return action.type;
  }
}

const CALL_WORDS = {
  tichu: ["Call Tichu?", (v) => `You promise to go out first: +${v.tichu} if you do, −${v.tichu} if you do not.`],
  grand_tichu: ["Call Grand Tichu?", (v) => `You promise, on these cards alone, to go out first: +${v.grand_tichu} if you do, −${v.grand_tichu} if you do not.`],
};

function confirmCall(action) {
  const [title, words] = CALL_WORDS[action.type];
  const values = S.state.scoring || { tichu: 100, grand_tichu: 200 };
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = words(values);
  const dialog = $("confirm");
  $("confirm-yes").onclick = () => {
    dialog.close();
    act(action);
  };
  dialog.showModal();
}

// Plays grouped by their cards: one entry per set of cards, its Phoenix readings inside.
function groupPlays(plays) {
  const groups = new Map();
  for (const play of plays) {
    const key = play.cards.split(" ").sort().join(" ");
    if (!groups.has(key)) groups.set(key, { cards: play.cards.split(" "), readings: [], bomb: play.bomb });
    groups.get(key).readings.push(play);
  }
  return [...groups.values()];
}

// Whether a bomb from `seat` could matter on the play on the table: an opponent's
// play, or the Dragon (a bombed Dragon trick is the bomber's, not given away). The
// terminal asks "Bomb?" by the same rule (tichu_core/frontends/text/bombs.py).
function bombMayMatter(view, seat) {
  if (view.top_seat === null || !view.trick.length) return false;
  if (view.trick[view.trick.length - 1].cards === "DR") return true;
  return view.teams[view.top_seat] !== view.teams[seat];
}

function bombNode(seat, groups) {
  const single = groups.length === 1;
  const label = single ? `Bomb: ${groups[0].readings[0].label}` : `Bomb… (${groups.length})`;
  return el(
    "button",
    {
      class: "bomb-button",
      dataKind: "bomb",
      aria: single ? label : `Bomb: choose one of ${groups.length} bombs`,
      onclick: () => {
        if (single) return act(groups[0].readings[0]);
        S.bombMenu = S.bombMenu === seat ? null : seat;
        render();
      },
    },
    label,
  );
}

function bombMenu(seat, groups) {
  return el(
    "div",
    { class: "bomb-menu", role: "group", aria: "choose a bomb" },
    groups.map((g) =>
      el(
        "button",
        { class: "bomb-choice", dataBombChoice: g.cards.join(" "), aria: g.readings[0].label, onclick: () => { S.bombMenu = null; act(g.readings[0]); } },
        inlineCards(g.cards),
        el("span", { class: "chip-label", text: g.readings[0].label }),
      ),
    ),
  );
}

function actionsNode(seat, cards, options, view) {
  const fixed = options.actions.filter((a) => a.type !== "play");
  const onTurn = view.waiting_for.includes(seat);
  // Out of turn the plays listed are bombs: offered only where a bomb could matter.
  const worth = bombMayMatter(view, seat);
  const plays = options.actions.filter((a) => a.type === "play" && (onTurn || worth));
  if (!onTurn && !fixed.length && !plays.length && !options.push) {
    return el("div", { class: "actions idle muted", text: idleText(view, seat) });
  }
  const bombs = worth ? groupPlays(plays.filter((p) => p.bomb)) : [];
  const chosen = [...S.selected[seat]].map((i) => cards[i]);
  const main = [];
  const calls = [];
  const choices = [];
  for (const a of fixed) {
    const attrs = { dataKind: a.type, dataRank: a.rank ?? null, dataTo: a.to ?? null };
    if (a.type === "tichu" || (a.type === "grand_tichu" && a.call)) {
      calls.push(el("button", { ...attrs, class: "call", aria: a.type === "tichu" ? "Call Tichu" : "Call Grand Tichu", onclick: () => confirmCall(a) }, fixedLabel(a, view)));
    } else if (a.type === "wish") {
      choices.push(el("button", { ...attrs, class: a.rank === null ? "" : "wish", aria: a.rank === null ? "No wish" : `Wish for ${a.rank}`, onclick: () => act(a) }, fixedLabel(a, view)));
    } else if (a.type === "pass") {
      main.push(el("button", { ...attrs, class: "pass-button", aria: fixedLabel(a, view) + " (P)", onclick: () => act(a) }, fixedLabel(a, view)));
    } else {
      const primary = a.type === "grand_tichu" || a.type === "another_hand";
      main.push(el("button", { ...attrs, class: primary ? "primary" : "", aria: fixedLabel(a, view), onclick: () => act(a) }, fixedLabel(a, view)));
    }
  }
  const parts = [];
  if (choices.length) parts.push(el("div", { class: "wishes", role: "group", aria: "make a wish" }, el("span", { class: "muted", text: "Wish for:" }), choices));
  if (plays.length) {
    const matching = plays.filter((p) => sameCards(p.cards.split(" "), chosen));
    if (matching.length) {
      for (const p of matching.reverse()) {
        const label = matching.length > 1 ? `Play ${p.label}` : `Play ${p.label}`;
        main.unshift(el("button", { class: "primary", dataKind: "play", aria: label + " (Enter)", onclick: () => act(p) }, label));
      }
    } else if (onTurn || chosen.length) {
      main.unshift(
        el("button", { class: "primary", dataKind: "play", disabled: true, aria: "Play" }, chosen.length ? "Not a legal play" : "Select cards to play"),
      );
    }
    if (!view.trick.length || view.turn !== seat) {
      // an empty trick or a bomb out of turn: nothing more to say
    }
  }
  if (view.turn !== seat && plays.length && plays.every((p) => p.bomb)) {
    parts.push(el("div", { class: "muted hint", dataOutOfTurn: seat, text: "You may bomb now, out of turn, or let it stand." }));
  }
  if (bombs.length) main.push(bombNode(seat, bombs));
  parts.push(el("div", { class: "actions" }, main, calls.length ? el("span", { class: "spacer" }) : null, calls));
  if (bombs.length > 1 && S.bombMenu === seat) parts.push(bombMenu(seat, bombs));
  if (plays.length) {
    const groups = groupPlays(plays);
    const details = el(
      "details",
      { class: "plays", open: S.showPlays, ontoggle: (e) => (S.showPlays = e.target.open) },
      el("summary", { text: `Legal plays (${groups.length})` }),
      el(
        "div",
        { class: "chips" },
        groups.map((g) =>
          el(
            "button",
            {
              class: "chip" + (g.bomb ? " bomb" : ""),
              dataChip: g.cards.join(" "),
              aria: g.readings.map((r) => r.label).join(" or "),
              onclick: () => {
                S.selected[seat] = selectCodes(cards, g.cards);
                render();
              },
            },
            inlineCards(g.cards),
            el("span", { class: "chip-label", text: g.readings.length > 1 ? `${g.readings[0].label.split(",")[0]} (${g.readings.length} ways)` : g.readings[0].label }),
          ),
        ),
      ),
    );
    parts.push(details);
  }
  if (options.push) parts.push(pushNode(seat, cards, options));
  return el("div", { class: "action-block" }, parts);
}

function selectCodes(cards, codes) {
  const wanted = [...codes];
  const chosen = new Set();
  cards.forEach((code, i) => {
    const at = wanted.indexOf(code);
    if (at >= 0) {
      wanted.splice(at, 1);
      chosen.add(i);
    }
  });
  return chosen;
}

// The exchange: select cards, give them to a target; push when every target has its cards.
function pushNode(seat, cards, options) {
  const plan = S.plan[seat];
  const selected = [...S.selected[seat]];
  const targets = Object.entries(options.push.targets);
  const complete = targets.every(([t, n]) => (plan[t] || []).length === n);
  const boxes = targets.map(([target, count]) => {
    const given = plan[target] || [];
    const ready = given.length !== count && selected.length === count;
    return el(
      "button",
      {
        type: "button",
        class: "push-target" + (given.length === count ? " done" : "") + (ready ? " ready" : ""),
        dataTarget: target,
        dataCount: count,
        dataGive: target,
        disabled: !ready,
        aria: `give ${count === 1 ? "the selected card" : `the ${count} selected cards`} to ${seatName(Number(target))}`,
        onclick: () => {
          plan[target] = selected;
          S.selected[seat] = new Set();
          render();
        },
      },
      el("span", { class: "who", text: `${seatName(Number(target))}` }),
      given.length ? cardRow(given.map((i) => cards[i]), "tiny") : el("span", { class: "muted", text: count === 1 ? "1 card" : `${count} cards` }),
    );
  });
  const push = el(
    "button",
    {
      class: "primary",
      dataKind: "push",
      disabled: !complete,
      onclick: () => {
        const given = {};
        for (const [target] of targets) given[target] = plan[target].map((i) => cards[i]).join(" ");
        act({ type: "push", seat, cards: given });
      },
    },
    complete ? "Give these cards" : "Select a card, then its player",
  );
  const reset = el("button", { class: "small", aria: "start the exchange again", onclick: () => { S.plan[seat] = {}; render(); } }, "start again");
  return el("div", { class: "push" }, el("div", { class: "push-targets" }, boxes), el("div", { class: "actions" }, push, reset));
}

// A won trick is taken without a click when that is all the seat can do but bomb
// (after a pause, during which a bomb may still be played, by anyone).
function autoCollect(view, legal) {
  const seat = view.seats.find((s) => s === view.top_seat && view.turn === s && legal[String(s)]);
  const version = S.state.version;
  if (seat === undefined) return cancelCollect();
  const actions = legal[String(seat)].actions;
  const onlyCollect = actions.every((a) => a.type === "pass" || (a.type === "play" && a.bomb));
  if (!onlyCollect || !actions.some((a) => a.type === "pass")) return cancelCollect();
  if (S.collecting && S.collecting.version === version) return;
  cancelCollect();
  const pass = actions.find((a) => a.type === "pass");
  S.collecting = {
    version,
    timer: setTimeout(() => {
      if (S.state && S.state.version === version) act(pass);
      S.collecting = null;
    }, COLLECT_PAUSE),
  };
  $("trick").append(el("div", { class: "muted collecting", text: "Collecting the trick…" }));
}

function cancelCollect() {
  if (S.collecting) clearTimeout(S.collecting.timer);
  S.collecting = null;
}

// --------------------------------------------------------------------------- scores

function sheetSeen() {
  return Number(localStorage.getItem("tichu.sheet." + S.tableId) || "-1");
}

function maybeShowSheet(view) {
  const results = S.state.results || [];
  const over = view.phase === "over" && !view.pending;
  const seen = sheetSeen();
  const want = over ? results.length : results.length - 1;
  if (results.length && want > seen) {
    localStorage.setItem("tichu.sheet." + S.tableId, String(want));
    openSheet(over);
  } else if ($("sheet").open) {
    fillSheet(over);
  }
}

function openSheet(over) {
  fillSheet(over);
  if (!$("sheet").open) $("sheet").showModal();
}

function callPoints(kind, values) {
  return kind === "grand_tichu" ? values.grand_tichu : values.tichu;
}

// One finished hand: for each score line what it got and why.
function handTable(result, view, totals) {
  // One row per score line (a team, a player): its card points, each call made or
  // failed, a double (Tientsin: triple) victory, what the variant's own rules added,
  // the hand's total and the running total.
  const values = S.state.scoring || { tichu: 100, grand_tichu: 200, double_victory: 200 };
  const signed = Words.signed;
  const nameAt = (seat) => {
    const player = result.players[seat];
    return player === null ? "Dummy" : playerName(player);
  };
  const mine = myLines(view);
  const rows = view.scores.map((_, line) => {
    let explained = result.card_points[line];
    const notes = [];
    for (const seat of Object.keys(result.calls).map(Number).sort((x, y) => x - y)) {
      if (result.lines[seat] !== line) continue;
      for (const kind of result.calls[seat].split("+")) {
        const made = result.out_order[0] === seat;
        const points = (made ? 1 : -1) * callPoints(kind, values);
        explained += points;
        notes.push(el("div", { class: made ? "made" : "failed" },
          `${nameAt(seat)}: ${kind === "grand_tichu" ? "Grand Tichu" : "Tichu"} ${made ? "made" : "failed"} ${signed(points)}`));
      }
    }
    if (result.double_victory && result.lines[result.out_order[0]] === line) {
      const together = result.lines.filter((l) => l === line).length;
      explained += values.double_victory;
      notes.push(el("div", { class: "made" }, `${together >= 3 ? "Triple" : "Double"} victory ${signed(values.double_victory)}`));
    }
    const rest = result.scores[line] - explained;
    if (rest) notes.push(el("div", { class: "rule" }, `By the variant's rules ${signed(rest)}`));
    return el(
      "tr",
      { class: mine.has(line) ? "mine" : "", dataLine: line },
      el("th", { class: "who", text: lineName(line, view), title: lineName(line, view) }),
      el("td", { class: "num card-points", text: Words.number(result.card_points[line]) }),
      el("td", { class: "notes" }, notes),
      el("td", { class: "num hand-total", text: signed(result.scores[line]) }),
      el("td", { class: "num running-total", text: Words.number(totals[line]) }),
    );
  });
  return el(
    "table",
    { class: "sheet", dataHand: result.index },
    el("thead", {}, el("tr", {},
      el("th", { text: `Hand ${result.index + 1}` }),
      el("th", { class: "num", text: "Card points" }),
      el("th", { text: "Calls and bonuses" }),
      el("th", { class: "num", text: "This hand" }),
      el("th", { class: "num", text: "Total" }))),
    el("tbody", {}, rows),
  );
}

function finishingOrder(result, view, latest) {
  // The order the players went out in; in Grand Seigneur, after the latest hand, with
  // the title each now holds (the running hand's titles come from that order).
  if (!result.out_order.length) return null;
  const titleOf = (player) => {
    if (!latest || player === null) return null;
    const seat = view.players.indexOf(player);
    return seat >= 0 ? view.titles[seat] || null : null;
  };
  return el(
    "ol",
    { class: "finishing" },
    result.out_order.map((seat) => {
      const player = result.players[seat];
      const title = titleOf(player);
      return el("li", {}, el("span", { class: "who", text: player === null ? "Dummy" : playerName(player) }),
        title ? el("span", { class: "badge title", text: title }) : null);
    }),
  );
}

// Threechu: whose partner the dummy was in a hand (the seat of its team that a player
// holds), as the sheet says it: "Partners this hand: Cyd & the dummy".
function partnership(result, view) {
  const dummy = result.players.indexOf(null);
  if (dummy < 0) return null;
  const name = (seat) => (result.players[seat] === null ? "the dummy" : playerName(result.players[seat]));
  const teams = [...new Set(view.teams)].map((team) => result.players.map((_, seat) => seat).filter((seat) => view.teams[seat] === team));
  const first = teams.find((seats) => seats.includes(dummy)) || [];
  const partner = first.filter((seat) => seat !== dummy).map(name);
  const said = [first, ...teams.filter((seats) => !seats.includes(dummy))].filter((seats) => seats.length > 1).map((seats) => seats.map(name).join(" & "));
  if (!partner.length) return null;
  return el("p", { class: "partnership", dataDummyPartner: partner.join(" & ") }, `Partners this hand: ${said.join("; ")}.`);
}

function runningTotals(results, count) {
  const totals = S.state.observation.scores.map(() => 0);
  const all = [];
  for (const result of results.slice(0, count)) {
    result.scores.forEach((s, l) => (totals[l] += s));
    all.push([...totals]);
  }
  return all;
}

function fillSheet(over) {
  const view = S.state.observation;
  const results = S.state.results || [];
  const totals = runningTotals(results, results.length);
  const body = [];
  if (over) {
    const winners = (S.state.winners || []).map((l) => lineName(l, view));
    body.push(el("p", { class: "winner", dataWinners: (S.state.winners || []).join(" ") },
      winners.length ? `${Words.listed(winners)} ${winners.length > 1 || /&/.test(winners[0]) ? "win" : "wins"} the match!` : "The match is over."));
  }
  if (!results.length) body.push(el("p", { class: "muted", text: "No hand has been scored yet." }));
  const last = results.length - 1;
  if (last >= 0) {
    body.push(handTable(results[last], view, totals[last]));
    const order = finishingOrder(results[last], view, view.hand_index > results[last].index);
    if (order) body.push(el("h3", { text: "Finishing order" }), order);
    const partners = partnership(results[last], view);
    if (partners) body.push(partners);
  }
  if (results.length > 1 || over) {
    const lines = view.scores.map((_, l) => l);
    body.push(
      el("h3", { text: "Every hand" }),
      el("div", { class: "sheet-scroll" }, el(
        "table",
        { class: "sheet all-hands" },
        el("thead", {}, el("tr", {}, el("th", { text: "Hand" }), lines.map((l) => el("th", { class: "num", text: lineName(l, view), title: lineName(l, view) })))),
        el(
          "tbody",
          {},
          results.map((r, i) =>
            el("tr", { dataHand: r.index }, el("th", { text: String(r.index + 1) }), lines.map((l) => el("td", { class: "num" }, Words.signed(r.scores[l]), el("span", { class: "muted", text: ` (${Words.number(totals[i][l])})` })))),
          ),
        ),
      )),
    );
    if (over && results.length > 1) {
      body.push(el("details", {}, el("summary", { text: "Every hand in detail" }), results.slice(0, -1).map((r, i) => handTable(r, view, totals[i]))));
    }
  }
  $("sheet-title").textContent = over ? "The match is over" : last >= 0 ? `Score after hand ${last + 1}` : "Score";
  $("sheet-body").replaceChildren(...body);
}

function closeDialogs() {
  for (const id of ["sheet", "confirm"]) if ($(id) && $(id).open) $(id).close();
}

// --------------------------------------------------------------------------- the log

function describe(event, names, trick) {
  const who = (seat) => names[seat] ?? `seat ${seat + 1}`;
  const byTarget = (cards) =>
    Object.entries(cards).flatMap(([t, c], i) => [i ? ", " : "", `${who(Number(t))} `, inlineCards(c)]);
  switch (event.type) {
    case "hand_started":
      return [`Hand ${event.hand + 1} begins; ${who(event.dealer)} deals.`];
    case "cards_dealt":
      return [`${who(event.seat)} is dealt `, inlineCards(event.cards), "."];
    case "grand_tichu":
      return event.call ? [`${who(event.seat)} calls Grand Tichu!`] : null;
    case "tichu":
      return [`${who(event.seat)} calls Tichu!`];
    case "pushed":
      return event.cards ? [`${who(event.seat)} gives `, ...byTarget(event.cards), "."] : [`${who(event.seat)} has chosen the cards to give.`];
    case "cards_received":
      return [`${who(event.seat)} receives: `, ...byTarget(event.cards), "."];
    case "exchange_done":
      return [`The exchange is done; ${who(event.leader)} leads.`];
    case "hand_shown":
      return [`${who(event.seat)}'s hand is face up: `, inlineCards(event.cards), "."];
    case "played": {
      const phoenix = phoenixValue(event);
      trick.top = event.seat;
      return [`${who(event.seat)}: `, inlineCards(event.cards), ` ${comboWords(event)}${phoenix ? `, ${phoenix}` : ""}${event.bomb ? " — a bomb!" : ""}`];
    }
    case "passed":
      // The seat whose play stands "passes" to take the trick: the trick_won line says it.
      return event.seat === trick.top ? null : [`${who(event.seat)} passes.`];
    case "wish_made":
      return event.rank ? [`${Words.says(who(event.seat), "wish", `for ${Words.withArticle(event.rank)}`)}.`] : [`${Words.says(who(event.seat), "make", "no wish")}.`];
    case "wish_fulfilled":
      return [`The wish for ${Words.withArticle(event.rank)} is fulfilled.`];
    case "trick_won":
      trick.top = null;
      return [`${who(event.seat)} takes the trick (${Words.number(event.points)} pts)` + (event.to !== event.seat ? ` and gives it to ${who(event.to)}.` : ".")];
    case "dragon_given":
      return [`${who(event.seat)} gives the Dragon trick to ${who(event.to)}.`];
    case "lead_passed":
      trick.top = null;
      return [`${who(event.to)} leads after the Dog.`];
    case "seat_out":
      return [`${who(event.seat)} is out (${ordinal(event.place)}).`];
    case "hand_scored": {
      const view = S.state.observation;
      const parts = event.scores.map((s, l) => `${lineName(l, view)} ${Words.signed(s)}`).join(", ");
      return [
        `Hand ${event.hand + 1} scored: ${parts}. `,
        el("button", { class: "link", aria: "open the score sheet", onclick: () => openSheet(false) }, "score sheet"),
      ];
    }
    case "match_over": {
      const view = S.state.observation;
      const winners = Words.listed(event.winners.map((l) => lineName(l, view)));
      return [`The match is over: ${winners} won.`];
    }
    case "another_hand":
      return [event.more ? `${who(event.seat)} wants another hand.` : `${who(event.seat)} ends the match.`];
    default:
      return [event.type.replaceAll("_", " ")];
  }
}

function renderLog() {
  const items = [];
  let names = {};
  const trick = { top: null };
  S.events.forEach((event) => {
    if (event.type === "hand_started") {
      names = {};
      event.players.forEach((player, seat) => {
        names[seat] = player === null ? "Dummy" : playerName(player);
      });
      trick.top = null;
    }
    const parts = describe(event, names, trick);
    if (parts) items.push(el("li", { class: event.visible_to !== null && event.visible_to !== undefined ? "private" : event.type }, parts));
  });
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren(...items);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// --------------------------------------------------------------------------- keyboard

// Cards are chosen by typing their codes ("10s", "kp", "ph", "dr", "mj", "dog"); Enter
// plays the selection, P passes (a "p" that may start "ph" waits for the next key),
// Escape clears the selection.
function keyboardSeat() {
  const view = S.state?.observation;
  if (!view) return undefined;
  return myWaitingSeat(view, S.state.legal) ?? view.seats[0];
}

function clickFirst(selector) {
  const node = document.querySelector(selector);
  if (node && !node.disabled) node.click();
  return Boolean(node);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (document.querySelector("dialog[open]")) return;
  const seat = keyboardSeat();
  if (seat === undefined) return;
  const key = event.key;
  const mine = `#mine [data-my-seat="${seat}"]`;
  if (key === "Enter") {
    if (target && target.tagName === "BUTTON") return; // a focused button takes Enter itself
    event.preventDefault();
    clickFirst(`${mine} button[data-kind="play"].primary:not([disabled])`) ||
      clickFirst(`${mine} button[data-kind="push"]:not([disabled])`);
    return;
  }
  if (key === "Escape") {
    S.selected[seat] = new Set();
    S.typed = "";
    render();
    return;
  }
  if (key.length !== 1 || !/[0-9a-z]/i.test(key)) return;
  const now = Date.now();
  if (now - S.typedAt > 1500) S.typed = "";
  S.typedAt = now;
  const k = key.toLowerCase();
  clearTimeout(S.passTimer);
  if (S.typed === "" && k === "p") {
    S.typed = "p";
    S.passTimer = setTimeout(() => {
      if (S.typed === "p") {
        S.typed = "";
        clickFirst(`${mine} button[data-kind="pass"]`);
      }
    }, 450);
    return;
  }
  S.typed += k;
  const cards = S.state.observation.hands[seat] || [];
  const codes = [...new Set(cards.map((c) => c.toLowerCase()))];
  if (codes.includes(S.typed)) {
    const code = S.typed;
    S.typed = "";
    const indexes = cards.map((c, i) => (c.toLowerCase() === code ? i : -1)).filter((i) => i >= 0);
    const selected = S.selected[seat];
    const node = (i) => document.querySelector(`${mine} [data-hand] [data-index="${i}"]`);
    const free = indexes.find((i) => !selected.has(i) && node(i) && !node(i).disabled);
    if (free !== undefined) selected.add(free);
    else if (indexes.some((i) => selected.has(i))) selected.delete(indexes.find((i) => selected.has(i)));
    render();
    return;
  }
  if (!codes.some((c) => c.startsWith(S.typed))) S.typed = codes.some((c) => c.startsWith(k)) ? k : "";
}

// --------------------------------------------------------------------------- chat, last trick, sound

// Watching: a banner on the felt; the chat box is for seated people only.
function renderExtras(table) {
  const watching = S.player === null;
  $("watching").hidden = !watching;
  document.body.dataset.watching = watching ? "yes" : "";
  $("chat-text").disabled = watching;
  $("chat-send").disabled = watching;
  $("chat-text").placeholder = watching ? "only the seated write here" : "say something to the table";
  $("open-last").disabled = !lastTrick();
}

function onChat(message) {
  if (message.table !== S.tableId) return;
  S.chat = message.history ? [...message.messages] : [...(S.chat || []), ...message.messages];
  renderChat();
}

function renderChat() {
  const lines = S.chat || [];
  $("chat").dataset.count = lines.length;
  $("chat-lines").replaceChildren(
    ...lines.map((line) =>
      el(
        "li",
        { dataPlayer: line.player, title: new Date(line.time * 1000).toLocaleTimeString() },
        el("b", { text: line.player === S.player ? "You" : line.name }),
        ": ",
        // Text, never HTML: whatever was typed is shown as typed.
        el("span", { class: "chat-text", text: line.text }),
      ),
    ),
  );
  $("chat-lines").scrollTop = $("chat-lines").scrollHeight;
}

function sendChat(event) {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  const seat = saved(S.tableId);
  if (!text || !seat) return;
  send({ type: "chat", token: seat.token, text }, (reply) => {
    if (reply.type === "chatted") $("chat-text").value = "";
  });
}

// The last trick taken in this hand: its plays and passes, and who took it.
function lastTrick() {
  const view = S.state && S.state.observation;
  if (!view) return null;
  let entries = [];
  let last = null;
  for (const event of S.events) {
    if (event.hand !== view.hand_index) continue;
    if (["lead_passed", "exchange_done", "hand_started"].includes(event.type)) entries = [];
    else if (event.type === "played") entries.push({ kind: "play", ...event });
    else if (event.type === "passed") entries.push({ kind: "pass", seat: event.seat });
    else if (event.type === "trick_won") {
      last = { entries, won: event };
      entries = [];
    }
  }
  return last;
}

function openLastTrick() {
  const last = lastTrick();
  if (!last) return;
  const { won } = last;
  // The winner's closing pass is its taking the trick: said once, below.
  const entries = last.entries.filter((e, i) => !(e.kind === "pass" && e.seat === won.seat && i === last.entries.length - 1));
  const to = won.to !== won.seat ? `, given to ${Words.object(seatName(won.to))}` : "";
  $("last-body").replaceChildren(
    el(
      "ol",
      { class: "last-plays" },
      entries.map((entry) =>
        entry.kind === "pass"
          ? el("li", { class: "muted", text: `${seatName(entry.seat)}: pass` })
          : el("li", { dataSeat: entry.seat }, el("b", { text: `${seatName(entry.seat)}: ` }), inlineCards(entry.cards), ` ${comboWords(entry)}`),
      ),
    ),
    el("p", { class: "last-won", text: `${seatName(won.seat)} took the trick (${Words.number(won.points)} pts)${to}.` }),
  );
  $("last-trick").showModal();
}

function muted() {
  return localStorage.getItem("tichu.mute") === "1";
}

function renderMute() {
  const off = muted();
  $("mute").classList.toggle("off", off);
  $("mute").setAttribute("aria-pressed", off ? "true" : "false");
  $("mute").setAttribute("aria-label", off ? "sound off: turn it on" : "sound on: turn it off");
  $("mute").title = off ? "sound off" : "sound on";
}

// A short, quiet tone for a card played by another seat (lower for a bomb), and a
// play that arrives on the trick fades in with a glow; the mute switch silences the
// tone, and a system asking for reduced motion gets no fade (style.css).
function feedback(fresh) {
  const plays = fresh.filter((e) => e.type === "played");
  if (!plays.length || !S.state || !S.state.observation) return;
  const top = document.querySelector("#trick .entry.play.top");
  if (top) top.classList.add("arrive");
  const mine = S.state.observation.seats;
  const others = plays.filter((e) => !mine.includes(e.seat));
  if (!others.length || muted() || document.hidden) return;
  tone(others.some((e) => e.bomb) ? 220 : 660);
}

function tone(frequency) {
  try {
    S.audio = S.audio || new AudioContext();
    const audio = S.audio;
    const gain = audio.createGain();
    const osc = audio.createOscillator();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.04, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
    document.body.dataset.sounds = Number(document.body.dataset.sounds || 0) + 1;
  } catch (error) {
    // No audio on this device: nothing to play.
  }
}

// The lobby's finished matches: game, players by team, final scores, the record.
function renderRecords() {
  const records = S.records || [];
  $("records-panel").hidden = records.length === 0;
  $("records").querySelector("tbody").replaceChildren(
    ...records.map((r) => {
      const lines = r.scores.map((score, line) => {
        const who = r.teams ? r.names.filter((_, p) => r.teams[p] === line).join(" & ") : r.names[line] || `line ${line + 1}`;
        return { who, score, won: r.winners.includes(line) };
      });
      return el(
        "tr",
        { dataRecord: r.table },
        el("td", { class: "name-cell", text: r.variant_title, title: new Date(r.finished * 1000).toLocaleString() }),
        el("td", { class: "name-cell", text: r.names.join(", "), title: r.names.join(", ") }),
        el("td", { class: "record-score" }, lines.flatMap((l, i) => [i ? " · " : "", el(l.won ? "b" : "span", { text: `${l.who} ${Words.number(l.score)}` })])),
        el("td", {}, el("a", { href: `/record/${r.table}`, download: `tichu-${r.table}.json`, title: "the saved game: tichu replay FILE", text: "record" })),
      );
    }),
  );
}

// --------------------------------------------------------------------------- start

window.addEventListener("hashchange", follow);
// The lobby's list of tables stays fresh while it is shown.
setInterval(() => {
  if (S.connected && S.tableId === null) send({ type: "tables" });
  if (S.connected && S.tableId === null) send({ type: "records" });
}, 5000);
// The felt changes size (the window, the hand's list of plays opened): the plates follow.
let feltSize = "";
new ResizeObserver(() => {
  const felt = $("felt");
  const size = `${felt.clientWidth}x${felt.clientHeight}`;
  if (size === feltSize || !S.state || !S.state.observation) return;
  feltSize = size;
  const n = S.state.observation.hand_sizes.length;
  if (isNarrow(felt, n) !== felt.classList.contains("narrow")) renderSeats(S.state.observation);
  else placeSeats(felt);
}).observe($("felt"));
$("center").addEventListener("scroll", () => $("center").classList.toggle("scrolled", $("center").scrollTop > 0));
document.addEventListener("DOMContentLoaded", () => {
  $("variant").addEventListener("change", renderSizes);
  $("create-form").addEventListener("submit", createTable);
  $("join-form").addEventListener("submit", joinTable);
  $("copy-link").addEventListener("click", copyLink);
  $("refresh").addEventListener("click", () => send({ type: "tables" }));
  $("home").addEventListener("click", () => (location.hash = ""));
  $("open-sheet").addEventListener("click", () => openSheet(S.state?.observation?.phase === "over" && !S.state.observation.pending));
  $("open-log").addEventListener("click", () => document.body.classList.toggle("log-open"));
  $("close-log").addEventListener("click", () => document.body.classList.remove("log-open"));
  $("sheet-close").addEventListener("click", () => $("sheet").close());
  $("confirm-no").addEventListener("click", () => $("confirm").close());
  $("name").value = localStorage.getItem("tichu.name") || "";
  document.addEventListener("keydown", onKey);
  $("chat-form").addEventListener("submit", sendChat);
  $("open-last").addEventListener("click", openLastTrick);
  $("last-close").addEventListener("click", () => $("last-trick").close());
  $("mute").addEventListener("click", () => {
    localStorage.setItem("tichu.mute", muted() ? "" : "1");
    renderMute();
  });
  renderMute();
  follow();
  connect();
});
