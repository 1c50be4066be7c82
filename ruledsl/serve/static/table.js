// The table page: draws the view frames the server sends this seat, and sends its moves.
// Every text from the game goes in with textContent: rule files are untrusted, never HTML.
"use strict";

const PALETTE = ["#1d4f91", "#a4262c", "#1e7b34", "#6b3fa0", "#9a5a00", "#00707a", "#7a3b1d", "#3a3a3a"];
const MAX_SHOWN = 12; // the cards of a long shared zone drawn; the rest are counted

let socket = null;
let view = null;
let picked = null; // the card clicked, while several actions name it

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
      if (!view || view.version !== frame.version) hideRefusal();
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

function cardEl(card) {
  if (card === null) return el("div", "card back", "");
  const c = el("button", "card face");
  c.type = "button";
  c.dataset.name = card.name;
  c.title = card.name;
  c.appendChild(el("span", "label", card.label));
  let colour = card.suit === null ? "#222" : PALETTE[card.suit % PALETTE.length];
  if (/[♥♦]/.test(card.label)) colour = "#c0151b";
  else if (/[♠♣]/.test(card.label)) colour = "#111";
  c.style.color = colour;
  c.style.borderColor = colour;
  const naming = view.actions.filter((a) => a.cards.includes(card.name));
  if (naming.length) {
    c.classList.add("playable");
    c.onclick = () => {
      if (naming.length === 1) play(naming[0].index);
      else {
        picked = card.name;
        drawActions();
      }
    };
  } else c.disabled = true;
  return c;
}

function zoneEl(zone, showName) {
  const z = el("div", "zone " + zone.visibility);
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
    const list = zone.owner === null && zone.cards.length > MAX_SHOWN ? zone.cards.slice(-MAX_SHOWN) : zone.cards;
    if (list.length < zone.cards.length) cards.appendChild(el("span", "more", "+" + (zone.cards.length - list.length)));
    for (const card of list) cards.appendChild(cardEl(card));
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
  else if (view.current !== undefined && view.current !== null) turn = view.who[view.current] + " to play";
  document.getElementById("turn").textContent = turn;
  document.body.classList.toggle("my-turn", !view.over && view.actions.length > 0);

  const others = document.getElementById("others");
  const middle = document.getElementById("middle");
  const mine = document.getElementById("mine");
  others.replaceChildren();
  middle.replaceChildren();
  mine.replaceChildren();
  const zones = view.zones || [];
  for (let q = 0; q < view.players; q++) {
    if (q === me) continue;
    const seat = el("div", "seat" + (view.current === q && !view.over ? " acting" : ""));
    seat.dataset.seat = String(q);
    seat.appendChild(el("div", "who", view.who[q] + ((view.finished || []).includes(q) ? " · out" : "")));
    for (const zone of zones) if (zone.owner === q) seat.appendChild(zoneEl(zone));
    others.appendChild(seat);
  }
  for (const zone of zones) if (zone.owner === null) middle.appendChild(zoneEl(zone));
  for (const zone of zones) if (me !== null && zone.owner === me) mine.appendChild(zoneEl(zone, "your " + zone.name));

  const w = document.getElementById("window");
  w.hidden = !view.window;
  if (view.window) w.textContent = "Out of turn: you may act in '" + view.window.name + "' before play goes on.";
  drawActions();
  document.getElementById("typed").hidden = me === null || view.over;
  document.getElementById("rematch").hidden = me === null || !view.over;
  drawScores();
  const t = document.getElementById("transcript");
  t.replaceChildren(...view.transcript.map((line) => el("li", "", line)));
  t.scrollTop = t.scrollHeight;
}

function drawActions() {
  const box = document.getElementById("actions");
  box.replaceChildren();
  let actions = view.actions;
  if (picked !== null) {
    actions = actions.filter((a) => a.cards.includes(picked));
    box.appendChild(el("span", "hint", picked + ":"));
  }
  for (const action of actions) {
    const b = el("button", "action", action.label);
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
}

function show(value) {
  if (value === null || value === undefined) return "–";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return value.map(show).join(", ") || "–";
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
