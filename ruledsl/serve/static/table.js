// The table page: draws the view frames the server sends this seat, and sends its moves.
// Every text from the game goes in with textContent: rule files are untrusted, never HTML.
"use strict";

const PALETTE = ["#1d4f91", "#a4262c", "#1e7b34", "#6b3fa0", "#9a5a00", "#00707a", "#7a3b1d", "#3a3a3a"];
const MAX_SHOWN = 12; // the cards of a long sorted shared zone drawn; the rest are counted
const PILE_SHOWN = 4; // the top cards of a pile (a shared zone in the game's order) drawn, the top one marked

let socket = null;
let view = null;
let picked = null; // the card clicked, while several actions name it
let selected = []; // the names of the cards picked so far for a group choice (a card twice if two alike are)

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + location.pathname.replace(/\/$/, "") + "/ws");
  socket.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "view") {
      if (!view || view.version !== frame.version) {
        hideRefusal();
        selected = [];
      }
      view = frame;
      document.body.dataset.version = String(frame.version);
      picked = null;
      draw();
    } else if (frame.type === "error") {
      showRefusal(frame.message);
    }
  };
  socket.onclose = (event) => {
    document.getElementById("turn").textContent = "connection lost: reconnecting…";
    if (event.code !== 1008) setTimeout(connect, 1000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(index) {
  send({ type: "move", version: view.version, index: index });
}

function showRefusal(text) {
  const r = document.getElementById("refusal");
  r.textContent = text;
  r.hidden = false;
}

function hideRefusal() {
  document.getElementById("refusal").hidden = true;
}

// ---- groups of cards chosen at once: picked card by card, then confirmed

function groupActions() {
  return view.actions.filter((a) => a.set);
}

function counts(names) {
  const n = new Map();
  for (const name of names) n.set(name, (n.get(name) || 0) + 1);
  return n;
}

// Whether the cards `names` can all be part of the action's set (as many of each as it holds).
function holds(action, names) {
  const have = counts(action.set);
  for (const [name, k] of counts(names)) if ((have.get(name) || 0) < k) return false;
  return true;
}

// The group actions the cards picked so far (and `more`) can still complete.
function completing(more) {
  const names = more === undefined ? selected : selected.concat([more]);
  return groupActions().filter((a) => holds(a, names));
}

// The group actions whose cards are exactly those picked.
function confirming() {
  return completing().filter((a) => a.set.length === selected.length);
}

function toggle(name, on) {
  if (on) selected.push(name);
  else selected.splice(selected.indexOf(name), 1);
  hideRefusal();
  draw();
}

function labelOf(name) {
  for (const zone of view.zones || [])
    for (const card of zone.cards || []) if (card && card.name === name) return card.label;
  return name;
}

// A card the seat may not play now was clicked: ask the rules why, as a typed move reading like the moves it has
// with this card instead (the server answers with the same reason, for this seat, a typed move gets).
function whyNot(card) {
  if (!view.actions.length) {
    showRefusal(view.over ? "the game is over" : "you have no move to make now");
    return;
  }
  if (groupActions().length) {
    showRefusal(selected.length ? "'" + card.label + "' completes no legal choice with the cards picked" :
      "'" + card.label + "' is in no legal choice now");
    return;
  }
  for (const action of view.actions) {
    if (action.cards.length !== 1) continue;
    const label = labelOf(action.cards[0]);
    if (action.label.includes(label)) {
      send({ type: "move", version: view.version, text: action.label.replace(label, card.label) });
      return;
    }
  }
  showRefusal("'" + card.label + "' cannot be played now");
}

function cardEl(card, state) {
  if (card === null) return el("div", "card back", "");
  const c = el("button", "card face");
  c.type = "button";
  c.dataset.name = card.name;
  c.title = card.name;
  // A long name is set smaller, so that it fits its card.
  c.appendChild(el("span", "label" + (card.label.length > 4 ? " long" : ""), card.label));
  let colour = card.suit === null ? "#222" : PALETTE[card.suit % PALETTE.length];
  if (/[♥♦]/.test(card.label)) colour = "#c0151b";
  else if (/[♠♣]/.test(card.label)) colour = "#111";
  c.style.color = colour;
  c.style.borderColor = colour;
  const naming = view.actions.filter((a) => !a.set && a.cards.includes(card.name));
  if (state.stepped.get(card.name) > 0) {
    // Picked already, a step of a set chosen card by card: it stays picked until the set is done.
    state.stepped.set(card.name, state.stepped.get(card.name) - 1);
    c.classList.add("selected");
    c.disabled = true;
  } else if (state.picked.get(card.name) > 0) {
    // Picked for a group choice: a click puts it back.
    state.picked.set(card.name, state.picked.get(card.name) - 1);
    c.classList.add("selected");
    c.setAttribute("aria-pressed", "true");
    c.onclick = () => toggle(card.name, false);
  } else if (groupActions().length && completing(card.name).length) {
    c.classList.add("playable", "selectable");
    c.setAttribute("aria-pressed", "false");
    c.onclick = () => toggle(card.name, true);
  } else if (naming.length) {
    c.classList.add("playable");
    c.onclick = () => {
      hideRefusal();
      if (naming.length === 1) play(naming[0].index);
      else {
        picked = card.name;
        drawActions();
      }
    };
  } else if (state.mine && view.actions.length) {
    // Not playable now: it looks it, and a click says why.
    c.classList.add("unplayable");
    c.onclick = () => whyNot(card);
  } else if (state.mine) c.onclick = () => whyNot(card);
  else c.disabled = true;
  return c;
}

function zoneEl(zone, showName, state) {
  // "counted": none of its cards seen, only how many (which its name says already).
  const z = el("div", "zone " + zone.visibility + (zone.cards === null ? " counted" : ""));
  z.dataset.zone = zone.name;
  const head = el("div", "zone-name", (showName || zone.name) + " · " + zone.size);
  z.appendChild(head);
  const cards = el("div", "cards");
  if (zone.cards === null) {
    if (zone.size > 0) {
      const back = el("div", "card back", "");
      back.appendChild(el("span", "count", String(zone.size)));
      cards.appendChild(back);
    }
  } else {
    // A pile shows its top cards, the top one (the last) marked; a sorted zone has no top.
    const pile = zone.owner === null && !zone.sorted;
    const shown = pile ? PILE_SHOWN : zone.owner === null ? MAX_SHOWN : zone.cards.length;
    const list = zone.cards.length > shown ? zone.cards.slice(-shown) : zone.cards;
    if (list.length < zone.cards.length) cards.appendChild(el("span", "more", "+" + (zone.cards.length - list.length)));
    list.forEach((card, i) => {
      const c = cardEl(card, state);
      if (pile && i === list.length - 1) {
        c.classList.add("top");
        c.title = (card ? card.label : "a hidden card") + ": the top card";
      }
      cards.appendChild(c);
    });
  }
  z.appendChild(cards);
  return z;
}

function draw() {
  const me = view.seat;
  document.title = view.game + (me === null ? " (spectator)" : " (P" + me + ")");
  document.getElementById("title").textContent =
    view.game + " · " + (me === null ? "spectator" : "you are P" + me) +
    (view.phase !== undefined ? " · round " + view.round + ", phase " + view.phase : "");
  let turn = "";
  if (view.over) turn = view.error ? "the game stopped" : "game over";
  else if (view.current === me) turn = view.actions.length ? "your turn" : "waiting for the others";
  else if (view.together && view.together.chosen.includes(me))
    turn = "you have chosen; waiting for " + view.together.waiting.map((q) => "P" + q).join(", ");
  else if (view.current !== undefined && view.current !== null)
    turn = view.who[view.current] + (view.humans.includes(view.current) ? " to play" : " is thinking…");
  document.getElementById("turn").textContent = turn;
  document.body.classList.toggle("my-turn", !view.over && view.actions.length > 0);

  const others = document.getElementById("others");
  const middle = document.getElementById("middle");
  const mine = document.getElementById("mine");
  others.replaceChildren();
  middle.replaceChildren();
  mine.replaceChildren();
  const zones = view.zones || [];
  const theirs = { picked: new Map(), stepped: new Map(), mine: false };
  for (let q = 0; q < view.players; q++) {
    if (q === me) continue;
    const seat = el("div", "seat" + (view.current === q && !view.over ? " acting" : ""));
    seat.dataset.seat = String(q);
    // "P1 (random)": the seat, then what plays it (left out on a narrow screen).
    const [, seatName, spec] = /^(\S+)(.*)$/.exec(view.who[q]) || [null, view.who[q], ""];
    const who = el("div", "who", seatName);
    if (spec) who.appendChild(el("span", "spec", spec));
    if ((view.finished || []).includes(q)) who.appendChild(document.createTextNode(" · out"));
    const here = !view.present || view.present[q];
    const presence = el("span", "presence " + (here ? "here" : "away"), here ? "here" : "away");
    presence.title = here ? "connected" : "not connected: the page is closed";
    who.appendChild(presence);
    seat.appendChild(who);
    for (const zone of zones) if (zone.owner === q) seat.appendChild(zoneEl(zone, undefined, theirs));
    others.appendChild(seat);
  }
  for (const zone of zones) if (zone.owner === null) middle.appendChild(zoneEl(zone, undefined, theirs));
  const ours = { picked: counts(selected), stepped: counts(view.picking ? view.picking.cards : []), mine: true };
  for (const zone of zones) if (me !== null && zone.owner === me) mine.appendChild(zoneEl(zone, "your " + zone.name, ours));
  drawBanner();
  // The last move (or line the rules said), in sight above the table.
  document.getElementById("last").textContent = view.transcript.length ? view.transcript[view.transcript.length - 1] : "–";

  const w = document.getElementById("window");
  w.hidden = !view.window;
  if (view.window) w.textContent = "Out of turn: you may act in '" + view.window.name + "' before play goes on.";
  drawActions();
  document.getElementById("typed").hidden = me === null || view.over;
  drawScores();
  const t = document.getElementById("transcript");
  t.replaceChildren(...view.transcript.map((line) => el("li", "", line)));
  t.scrollTop = t.scrollHeight;
}

function drawActions() {
  const box = document.getElementById("actions");
  box.replaceChildren();
  let actions = view.actions.filter((a) => !a.set);
  if (picked !== null) {
    actions = actions.filter((a) => a.cards.includes(picked));
    box.appendChild(el("span", "hint", picked + ":"));
  }
  // An action played by clicking its one card in the hand: its button is left out on a narrow screen.
  const mine = new Set();
  for (const zone of view.zones || [])
    if (zone.owner === view.seat) for (const card of zone.cards || []) if (card) mine.add(card.name);
  for (const action of actions) {
    const byCard = picked === null && action.cards.length === 1 && mine.has(action.cards[0]);
    const b = el("button", "action" + (byCard ? " by-card" : ""), action.label);
    b.type = "button";
    b.onclick = () => play(action.index);
    box.appendChild(b);
  }
  if (picked !== null) {
    const back = el("button", "action back-button", "all actions");
    back.type = "button";
    back.onclick = () => {
      picked = null;
      drawActions();
    };
    box.appendChild(back);
  }
  if (groupActions().length) drawPicking(box);
  if (view.picking) {
    const names = view.picking.cards.map(labelOf).join(" ") || "none yet";
    box.prepend(el("span", "hint", "Picked to " + view.picking.action.replace(/_/g, " ") + ": " + names));
  }
}

// A group choice: what is picked, and one button that plays it once it is a legal choice.
function drawPicking(box) {
  const line = el("div", "picking");
  const sizes = [...new Set(completing().map((a) => a.set.length))].sort((a, b) => a - b);
  const names = [...new Set(groupActions().map((a) => a.group))].join(" / ");
  line.appendChild(el("span", "hint", selected.length ?
    "Picked: " + selected.map(labelOf).join(" ") :
    names + ": pick " + sizes.join(" or ") + " card" + (sizes.length === 1 && sizes[0] === 1 ? "" : "s") + " in your hand"));
  const ready = confirming();
  for (const action of ready.length ? ready : [null]) {
    const b = el("button", "action confirm", action ? action.label : "pick the cards");
    b.type = "button";
    b.disabled = action === null;
    if (action) b.onclick = () => play(action.index);
    line.appendChild(b);
  }
  if (selected.length) {
    const clear = el("button", "action clear", "clear");
    clear.type = "button";
    clear.onclick = () => {
      selected = [];
      draw();
    };
    line.appendChild(clear);
  }
  box.appendChild(line);
}

// The end of the game, at the top of every screen: the result, this seat's place, the scores, the seed, the rematch.
function drawBanner() {
  const banner = document.getElementById("banner");
  const result = view.result;
  banner.hidden = !result;
  if (!result) return;
  const me = view.seat;
  const lines = [el("strong", "outcome", result.text.replace(/^Result: /, ""))];
  if (me !== null && result.places.length) {
    const place = result.places[me];
    lines.push(el("span", "place", result.winners.includes(me) ? "You win" :
      "Your place: " + ordinal(place) + " of " + view.players));
  }
  if (result.scores.length)
    lines.push(el("span", "result-scores", result.scores.map((s, q) => (q === me ? "you" : "P" + q) + " " + s).join(" · ")));
  lines.push(el("span", "seed", "Seed " + result.seed));
  const asked = view.rematch || [];
  const rematch = document.getElementById("rematch");
  rematch.hidden = me === null;
  rematch.disabled = asked.includes(me);
  rematch.textContent = asked.includes(me) ? "Rematch asked" : "Rematch";
  const waiting = (view.humans || []).filter((q) => !asked.includes(q));
  const status = asked.length ? "rematch when " + waiting.map((q) => "P" + q).join(", ") + " agree" : "";
  const text = el("div", "banner-text");
  text.replaceChildren(...lines);
  const row = el("div", "banner-rematch", status);
  banner.replaceChildren(text, row);
  row.prepend(rematch);
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return n + tail;
}

function show(value) {
  if (value === null || value === undefined) return "–";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return value.map(show).join(", ") || "–";
  // A fraction reads with two decimals at most (a return of 2/3 is 0.67, not 0.6666666666666666).
  if (typeof value === "number" && !Number.isInteger(value)) return String(Math.round(value * 100) / 100);
  return String(value);
}

function drawScores() {
  const box = document.getElementById("scores");
  box.replaceChildren();
  if (view.auction) {
    const a = view.auction;
    const passed = a.passed.map((x, q) => (x ? view.who[q] : null)).filter((x) => x !== null);
    const standing = a.standing ? a.standing + " by " + view.who[a.bidder] : "no bid yet";
    box.appendChild(el("p", "auction", "Auction: " + standing + (passed.length ? "; passed: " + passed.join(", ") : "")));
  }
  const vars = Object.entries(view.variables || {});
  if (vars.length) {
    const dl = el("dl", "vars");
    for (const [k, v] of vars) {
      dl.appendChild(el("dt", "", k));
      dl.appendChild(el("dd", "", show(v)));
    }
    box.appendChild(dl);
  }
  const pvars = Object.entries(view.player_variables || {});
  if (pvars.length || view.returns) {
    const table = el("table", "scores");
    const head = el("tr");
    head.appendChild(el("th", "", ""));
    for (let q = 0; q < view.players; q++) head.appendChild(el("th", "", q === view.seat ? "you" : "P" + q));
    table.appendChild(head);
    const rows = pvars.slice();
    if (view.returns) rows.push(["result", view.returns]);
    for (const [k, values] of rows) {
      const tr = el("tr");
      tr.appendChild(el("th", "", k));
      for (const v of values) tr.appendChild(el("td", "", show(v)));
      table.appendChild(tr);
    }
    box.appendChild(table);
  }
}

document.getElementById("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("move");
  const text = input.value.trim();
  if (text) send({ type: "move", version: view.version, text: text });
  input.value = "";
});
document.getElementById("rematch").addEventListener("click", () => send({ type: "rematch" }));
connect();
