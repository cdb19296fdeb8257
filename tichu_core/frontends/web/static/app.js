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
  botWords: {},
  tables: [],
  tableId: null, // the table this page shows (from the address: #table=ID)
  player: null, // our player at that table, or null when watching
  events: [], // our event stream so far
  state: null, // the last state message
  selected: {}, // seat -> Set of hand indexes
  plan: {}, // seat -> {target: [hand indexes]}: the push being put together
  handKey: {}, // seat -> the cards the selection was made in
};

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = { j: "◆", s: "♠", p: "♣", t: "★" };
const SUIT_NAMES = { j: "jade", s: "sword", p: "pagoda", t: "star" };
const SPECIALS = { MJ: "Mah Jong", DOG: "Dog", PH: "Phoenix", DR: "Dragon" };

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.startsWith("data")) node.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
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
    $("connection").textContent = "connected";
    send({ type: "variants" });
    send({ type: "tables" });
    follow();
  };
  ws.onclose = () => {
    S.connected = false;
    $("connection").textContent = "disconnected: reconnecting…";
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

// Follow the table of the address: as our player if this browser holds its token.
function follow() {
  const match = /table=([0-9a-zA-Z_-]+)/.exec(location.hash);
  const tableId = match ? match[1] : null;
  if (tableId !== S.tableId) {
    S.tableId = tableId;
    S.events = [];
    S.state = null;
    S.selected = {};
    S.plan = {};
  }
  $("lobby").hidden = tableId !== null;
  $("table-view").hidden = tableId === null;
  if (tableId === null) {
    S.player = null;
    if (S.connected) send({ type: "tables" });
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
      S.botWords = message.bot_descriptions || {};
      renderVariants();
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
    case "state":
      onState(message);
      break;
    case "error":
      status(`${message.message} [${message.code}]`, true);
      if (message.code === "bad_token" && S.tableId) {
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
  S.events.push(...message.events.slice(have - message.events_from));
  S.state = message;
  render();
}

// --------------------------------------------------------------------------- lobby

function renderVariants() {
  const select = $("variant");
  const current = select.value || "standard";
  select.replaceChildren(...S.variants.map((v) => el("option", { value: v.name, text: v.name })));
  select.value = S.variants.some((v) => v.name === current) ? current : S.variants[0]?.name;
  renderSizes();
  const fill = $("fill");
  fill.replaceChildren(
    el("option", { value: "", text: "free for people" }),
    ...S.bots.map((b) => el("option", { value: b, text: `bots (${botLabel(b)})` })),
  );
  fill.value = S.bots.includes("greedy") ? "greedy" : "";
  $("fill-bot").replaceChildren(...S.bots.map((b) => el("option", { value: b, text: botLabel(b) })));
  $("fill-bot").value = S.bots.includes("greedy") ? "greedy" : S.bots[0];
}

// A bot's name with the word the server gives on it ("search: plans by playing ...").
function botLabel(b) {
  return S.botWords && S.botWords[b] ? `${b}: ${S.botWords[b]}` : b;
}

function renderSizes() {
  const variant = S.variants.find((v) => v.name === $("variant").value);
  if (!variant) return;
  $("players").replaceChildren(
    ...variant.sizes.map((n) => el("option", { value: n, text: String(n) })),
  );
  $("players").value = variant.players;
  $("variant-description").textContent = variant.description;
}

function renderTables() {
  const body = $("tables").querySelector("tbody");
  body.replaceChildren(
    ...S.tables.map((t) => {
      const free = t.seating.filter((s) => s.kind === "free").length;
      const places = t.seating
        .map((s) => (s.kind === "free" ? "free" : s.kind === "bot" ? `bot ${s.name}` : s.name))
        .join(", ");
      return el(
        "tr",
        { dataTable: t.id },
        el("td", { text: t.id }),
        el("td", { text: t.variant }),
        el("td", { text: t.status }),
        el("td", { text: places }),
        el(
          "td",
          {},
          free > 0 && t.status !== "failed"
            ? el("button", { class: "small", dataJoin: t.id, onclick: () => sit(t.id) }, "sit")
            : null,
          " ",
          el("button", { class: "small", onclick: () => (location.hash = "table=" + t.id) }, "watch"),
        ),
      );
    }),
  );
}

function sit(tableId, player) {
  const name = $("name").value.trim() || undefined;
  const message = { type: "sit", table: tableId, name };
  if (player !== undefined) message.player = player;
  send(message, (reply) => {
    if (reply.type === "seated") location.hash = "table=" + tableId;
  });
}

function createTable(event) {
  event.preventDefault();
  const variant = S.variants.find((v) => v.name === $("variant").value);
  const players = Number($("players").value);
  const overrides = players !== variant.players ? { players } : {};
  const bot = $("fill").value;
  const bots = {};
  if (bot) for (let p = 1; p < players; p++) bots[String(p)] = bot;
  send({ type: "create", variant: variant.name, overrides, bots }, (reply) => {
    if (reply.type === "created") sit(reply.table.id, 0);
  });
}

// --------------------------------------------------------------------------- the table

function cardNode(code, attrs = {}) {
  const special = SPECIALS[code];
  const suit = special ? null : code.slice(-1);
  const rank = special ? code : code.slice(0, -1);
  const tag = attrs.onclick ? "button" : "span";
  const title = special ? special : `${rank} of ${SUIT_NAMES[suit]}`;
  return el(
    tag,
    { ...attrs, class: `card ${special ? "special" : suit} ${attrs.class || ""}`, dataCard: code, title },
    special ? el("span", { text: special }) : [el("span", { text: rank }), el("span", { class: "suit", text: SUITS[suit] })],
  );
}

function cardRow(codes, small = true) {
  return el("span", { class: "hand" }, codes.map((c) => cardNode(c, { class: small ? "small" : "" })));
}

// A player's name at this table: a person's own, or the bot's kind with its number.
function playerName(player) {
  const place = S.state.table.seating[player];
  if (!place || place.kind === "free") return `Player ${player}`;
  if (place.kind === "bot") return `Bot ${player} (${place.name})`;
  return place.name;
}

function seatName(seat) {
  const player = S.state.observation.players[seat];
  if (player === null) return `Dummy (seat ${seat})`;
  return player === S.player ? `${playerName(player)} (you)` : playerName(player);
}

function render() {
  const state = S.state;
  const table = state.table;
  const view = state.observation;
  document.body.dataset.version = state.version;
  document.body.dataset.player = state.player === null ? "" : state.player;
  document.body.dataset.tableStatus = table.status;
  $("table-title").textContent =
    `Table ${table.id} · ${table.variant} · ${table.players} players` +
    (view ? ` · hand ${view.hand_index + 1}` : "") +
    (state.player === null ? " · watching" : "");
  renderFree(table);
  if (!view) {
    $("phase").textContent = table.error ? `This table has stopped: ${table.error}` : "";
    return;
  }
  document.body.dataset.handsPlayed = view.hands_played;
  document.body.dataset.phase = view.phase;
  document.body.dataset.hand = view.hand_index;
  $("scores").replaceChildren(
    ...view.score_lines.map((line, i) => {
      const player = /^player (\d+)$/.exec(line);
      const name = player ? playerName(Number(player[1])) : line;
      return el("span", { text: `${name}: ${view.scores[i]}` });
    }),
  );
  renderSeats(view);
  renderCenter(view, table);
  renderMine(view, state.legal);
  renderLog();
}

function renderFree(table) {
  const free = table.seating.filter((s) => s.kind === "free").map((s) => s.player);
  $("free-places").hidden = free.length === 0 || table.status === "failed";
  $("free-text").textContent = `Free places: ${free.map((p) => "player " + p).join(", ")}. `;
  $("fill-button").onclick = () => {
    const bots = {};
    for (const p of free) bots[String(p)] = $("fill-bot").value;
    send({ type: "bots", table: table.id, bots });
  };
}

function renderSeats(view) {
  const n = view.hand_sizes.length;
  const first = view.seats.length ? view.seats[0] : 0;
  const order = Array.from({ length: n }, (_, i) => (first + i) % n);
  const partnered = new Set(view.teams).size < n;
  $("seats").replaceChildren(
    ...order.map((seat) => {
      const badges = [];
      if (view.titles[seat]) badges.push(el("span", { class: "badge", text: view.titles[seat] }));
      if (view.calls[seat]) badges.push(el("span", { class: "badge call", text: view.calls[seat].replace("_", " ") }));
      const place = view.out_order.indexOf(seat);
      if (place >= 0) badges.push(el("span", { class: "badge out", text: `out #${place + 1}` }));
      if (seat === view.dealer) badges.push(el("span", { class: "badge", text: "dealer" }));
      const classes = ["seat"];
      if (view.waiting_for.includes(seat)) classes.push("waiting");
      if (view.seats.includes(seat)) classes.push("me");
      const shown = view.hands[seat] && !view.seats.includes(seat) ? cardRow(view.hands[seat]) : null;
      return el(
        "div",
        { class: classes.join(" "), dataSeat: seat },
        el("div", {}, el("span", { class: "name", text: seatName(seat) }), ...badges),
        el(
          "div",
          { class: "muted" },
          `seat ${seat}` +
            (partnered ? ` · team ${view.teams[seat]}` : "") +
            ` · ${view.hand_sizes[seat]} cards · won ${view.won_points[seat]} pts`,
        ),
        shown,
      );
    }),
  );
}

function renderCenter(view, table) {
  const phases = {
    grand_tichu: "Grand Tichu: each player decides before seeing the rest of the cards",
    exchange: "Exchange: give cards to the other seats",
    play: view.turn !== null ? `Play: ${seatName(view.turn)} to play` : "Play",
    // A decision still pending (the last Dragon gift, GS-8's another hand): the hand is over.
    over: view.pending ? "The hand is over" : "The match is over",
  };
  let text = phases[view.phase] || view.phase;
  if (view.pending) {
    const what = {
      wish: "make a wish",
      give_trick: "give the Dragon trick away",
      give_lead: "give the lead",
      another_hand: "decide, as the Great Lord, whether another hand is played",
    };
    text += ` · ${seatName(view.pending.seat)} must ${what[view.pending.kind] || view.pending.kind}`;
  }
  if (table.status === "failed") text = `This table has stopped: ${table.error}`;
  $("phase").textContent = text;
  $("wish").textContent = view.wish ? `Wish: ${view.wish}` : "";
  $("trick").replaceChildren(
    ...(view.trick.length ? [] : [el("span", { class: "muted", text: "No cards on the table." })]),
    ...view.trick.map((play) =>
      el(
        "div",
        { class: "play" },
        el("span", { text: `${seatName(play.seat)}: ` }),
        cardRow(play.cards),
        el("span", { class: "muted", text: ` ${play.combination.replaceAll("_", " ")}` }),
      ),
    ),
  );
}

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
    return el(
      "div",
      { class: "mine", dataMySeat: seat },
      el("div", { class: "name", text: `${seatName(seat)} · seat ${seat}` }),
      handNode(seat, cards, options),
      exchanged(view, seat),
      options ? actionsNode(seat, cards, options, view) : el("div", { class: "muted", text: "Nothing to do now." }),
    );
  });
  $("mine").replaceChildren(...blocks);
}

// What the player's own seat gave and got in the exchange (given by the rules too, GS-6),
// shown until the first trick is won.
function exchanged(view, seat) {
  if (seat !== view.seats[0] || view.won_cards.some((count) => count > 0)) return null;
  const line = (what, cards) =>
    el(
      "div",
      { class: "exchanged" },
      what,
      ...Object.entries(cards).map(([other, codes]) =>
        el("span", { class: "given-to" }, ` ${seatName(Number(other))} `, cardRow(codes.split(" "))),
      ),
    );
  return el(
    "div",
    {},
    Object.keys(view.pushed).length ? line("You give to", view.pushed) : null,
    Object.keys(view.received).length ? line("You received from", view.received) : null,
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

function handNode(seat, cards, options) {
  const selected = S.selected[seat];
  const planned = new Set(Object.values(S.plan[seat] || {}).flat());
  const choosing = options && options.push ? pushable(seat, cards, options) : null;
  return el(
    "div",
    { class: "hand", dataHand: seat },
    cards.map((code, i) => {
      const enabled = options && (!choosing || choosing.has(i) || selected.has(i));
      return cardNode(code, {
        class: (selected.has(i) ? "selected" : "") + (planned.has(i) ? " given" : ""),
        dataIndex: i,
        disabled: !enabled,
        onclick: () => {
          if (selected.has(i)) selected.delete(i);
          else selected.add(i);
          render();
        },
      });
    }),
  );
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

function act(action) {
  const { label, bomb, ...clean } = action;
  const seat = saved(S.tableId);
  if (!seat) return status("you are watching this table", true);
  status("…");
  send({ type: "act", token: seat.token, action: clean });
}

function fixedLabel(action, view) {
  switch (action.type) {
    case "grand_tichu":
      return action.call ? "Call Grand Tichu" : "No Grand Tichu";
    case "tichu":
      return "Call Tichu";
    case "pass":
      return view.top_seat === action.seat ? "Collect the trick" : "Pass";
    case "wish":
      return action.rank === null ? "No wish" : `Wish ${action.rank}`;
    case "give_trick":
      return `Give the trick to ${seatName(action.to)}`;
    case "give_lead":
      return `Give the lead to ${seatName(action.to)}`;
    case "another_hand":
      return action.more ? "Another hand" : "End the match";
    default:
      return action.type;
  }
}

function actionsNode(seat, cards, options, view) {
  const fixed = options.actions.filter((a) => a.type !== "play");
  const plays = options.actions.filter((a) => a.type === "play");
  const chosen = [...S.selected[seat]].map((i) => cards[i]);
  const parts = [];
  const buttons = fixed.map((a) =>
    el(
      "button",
      { dataKind: a.type, dataRank: a.rank ?? null, dataTo: a.to ?? null, onclick: () => act(a) },
      fixedLabel(a, view),
    ),
  );
  if (plays.length) {
    const matching = plays.filter((p) => sameCards(p.cards.split(" "), chosen));
    if (matching.length) {
      for (const p of matching) {
        buttons.unshift(el("button", { class: "primary", dataKind: "play", onclick: () => act(p) }, `Play ${p.label}`));
      }
    } else {
      buttons.unshift(
        el("button", { class: "primary", dataKind: "play", disabled: true }, chosen.length ? "Not a legal play" : "Select cards to play"),
      );
    }
  }
  if (plays.length && view.turn !== seat) {
    // Out of turn the plays listed are bombs (S-BOMB-3): offered, never required.
    parts.push(el("div", { class: "muted", dataOutOfTurn: seat, text: "Out of turn: you may bomb this play, or let it stand." }));
  }
  parts.push(el("div", { class: "actions" }, buttons));
  if (plays.length) {
    parts.push(
      el(
        "div",
        { class: "chips" },
        el("span", { class: "muted", text: "Legal plays: " }),
        plays.map((p) =>
          el(
            "button",
            {
              class: "chip small",
              dataChip: p.cards,
              onclick: () => {
                S.selected[seat] = selectCodes(cards, p.cards.split(" "));
                render();
              },
            },
            `${p.label}${p.bomb ? " (bomb)" : ""}`,
          ),
        ),
      ),
    );
  }
  if (options.push) parts.push(pushNode(seat, cards, options));
  return el("div", {}, parts);
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
    return el(
      "div",
      { class: "push-target", dataTarget: target, dataCount: count },
      el("div", { text: `to ${seatName(Number(target))} (${count})` }),
      given.length ? cardRow(given.map((i) => cards[i])) : null,
      el(
        "button",
        {
          class: "small",
          dataGive: target,
          disabled: given.length === count || selected.length !== count,
          onclick: () => {
            plan[target] = selected;
            S.selected[seat] = new Set();
            render();
          },
        },
        count === 1 ? "give the selected card" : `give the ${count} selected cards`,
      ),
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
    "Push these cards",
  );
  const reset = el("button", { class: "small", onclick: () => { S.plan[seat] = {}; render(); } }, "start again");
  return el("div", {}, el("div", { class: "push-targets" }, boxes), el("div", { class: "actions" }, push, reset));
}

// --------------------------------------------------------------------------- the log

function describe(event, names) {
  const who = (seat) => names[seat] ?? `seat ${seat}`;
  const codes = (cards) => (Array.isArray(cards) ? cards.join(" ") : cards);
  const byTarget = (cards) =>
    Object.entries(cards).map(([t, c]) => `${who(Number(t))}: ${c}`).join(", ");
  switch (event.type) {
    case "hand_started":
      return `Hand ${event.hand + 1} begins; ${who(event.dealer)} deals.`;
    case "cards_dealt":
      return `${who(event.seat)} is dealt ${codes(event.cards)}.`;
    case "grand_tichu":
      return event.call ? `${who(event.seat)} calls Grand Tichu!` : `${who(event.seat)} declines Grand Tichu.`;
    case "tichu":
      return `${who(event.seat)} calls Tichu!`;
    case "pushed":
      return event.cards ? `${who(event.seat)} gives ${byTarget(event.cards)}.` : `${who(event.seat)} has pushed.`;
    case "cards_received":
      return `${who(event.seat)} receives from ${byTarget(event.cards)}.`;
    case "exchange_done":
      return `The exchange is done; ${who(event.leader)} leads.`;
    case "hand_shown":
      return `${who(event.seat)}'s hand is face up: ${codes(event.cards)}.`;
    case "played":
      return `${who(event.seat)} plays ${codes(event.cards)} (${event.combination.replaceAll("_", " ")}${event.bomb ? ", a bomb" : ""}).`;
    case "passed":
      return `${who(event.seat)} passes.`;
    case "wish_made":
      return event.rank ? `${who(event.seat)} wishes for ${event.rank}.` : `${who(event.seat)} makes no wish.`;
    case "wish_fulfilled":
      return `The wish for ${event.rank} is fulfilled.`;
    case "trick_won":
      return `${who(event.seat)} wins the trick (${event.points} points)` + (event.to !== event.seat ? `, which goes to ${who(event.to)}.` : ".");
    case "dragon_given":
      return `${who(event.seat)} gives the Dragon trick to ${who(event.to)}.`;
    case "lead_passed":
      return `${who(event.to)} leads after the Dog.`;
    case "seat_out":
      return `${who(event.seat)} is out (place ${event.place}).`;
    case "hand_scored":
      return `Hand scored: ${event.scores.join(" / ")}; totals ${event.totals.join(" / ")}.`;
    case "match_over":
      return `The match is over (${event.termination.replace("_", " ")}).`;
    default:
      return event.type;
  }
}

function renderLog() {
  const items = [];
  let names = {};
  S.events.forEach((event) => {
    if (event.type === "hand_started") {
      names = {};
      event.players.forEach((player, seat) => {
        names[seat] = player === null ? `Dummy (seat ${seat})` : playerName(player);
      });
    }
    items.push(el("li", { class: event.visible_to ? "private" : "" }, describe(event, names)));
  });
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren(...items.slice(-200));
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// --------------------------------------------------------------------------- start

window.addEventListener("hashchange", follow);
// The lobby's list of tables stays fresh while it is shown.
setInterval(() => {
  if (S.connected && S.tableId === null) send({ type: "tables" });
}, 5000);
document.addEventListener("DOMContentLoaded", () => {
  $("variant").addEventListener("change", renderSizes);
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", () => send({ type: "tables" }));
  $("home").addEventListener("click", () => (location.hash = ""));
  follow();
  connect();
});
