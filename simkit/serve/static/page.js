// simkit serve: the what-if page. Plain DOM and SVG, no library, nothing from the network.
"use strict";

const $ = (id) => document.getElementById(id);
let page = null;
let source = null;
const FIELDS = ["change", "players", "skill", "tolerance", "base", "name", "where"];

function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

function clearErrors() { for (const f of FIELDS) { const e = $("error-" + f); if (e) e.textContent = ""; } }

function showError(field, text) {
  const e = $("error-" + field) || $("error-base");
  e.textContent = text;
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
  const data = await r.json();
  if (!r.ok) { showError(data.field, data.error); return null; }
  return data;
}

function fill(state) {
  const s = state.setting;
  $("change").value = s.change;
  $("players").value = s.players ?? "";
  $("skill").value = s.skill;
  $("tolerance").value = s.tolerance;
}

function svgBars(cell) {
  const w = 460, row = 26, top = 18, left = 52, right = 10;
  const hi = Math.max(0.5, ...cell.slots.map((s) => s.high));
  const x = (v) => left + (w - left - right) * v / hi;
  const h = top + row * cell.slots.length + 6;
  const parts = [`<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="win rate by start slot, ${cell.name}">`];
  parts.push(`<rect x="${x(cell.band_low)}" y="${top - 4}" width="${x(cell.band_high) - x(cell.band_low)}" height="${h - top}" fill="#d9efd9"/>`);
  parts.push(`<line x1="${x(cell.fair_rate)}" x2="${x(cell.fair_rate)}" y1="${top - 4}" y2="${h - 2}" stroke="#1b6e20" stroke-dasharray="3 2"/>`);
  for (let v = 0; v <= hi + 1e-9; v += 0.1) {
    parts.push(`<text x="${x(v)}" y="11" font-size="10" text-anchor="middle" fill="#666">${Math.round(100 * v)}%</text>`);
  }
  cell.slots.forEach((s, i) => {
    const y = top + row * i + row / 2;
    const out = s.high < cell.band_low || s.low > cell.band_high;
    const colour = out ? "#b00020" : (s.low >= cell.band_low && s.high <= cell.band_high ? "#1b6e20" : "#8a6100");
    parts.push(`<text x="4" y="${y + 4}" font-size="12">slot ${s.slot}</text>`);
    if (s.rate !== null) {
      parts.push(`<rect x="${left}" y="${y - 6}" width="${x(s.rate) - left}" height="12" fill="${colour}" opacity="0.35"/>`);
      parts.push(`<line x1="${x(s.low)}" x2="${x(s.high)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/>`);
      parts.push(`<circle cx="${x(s.rate)}" cy="${y}" r="3.5" fill="${colour}"><title>slot ${s.slot}: ${pct(s.rate)} [${pct(s.low)}, ${pct(s.high)}], ${s.wins} wins of ${s.decided}</title></circle>`);
    }
  });
  parts.push("</svg>");
  return parts.join("");
}

function renderCell(box, cell) {
  if (!cell) { box.innerHTML = ""; return; }
  const cls = cell.verdict === "fair" ? "fair" : (cell.verdict === "unfair" ? "unfair" : "open");
  box.innerHTML =
    `<h2>${cell.name}: <span class="label"></span> — <span class="verdict ${cls}" data-verdict="${cell.verdict}"></span></h2>` +
    `<p class="hint">${cell.races.toLocaleString()} races, ${cell.decided.toLocaleString()} decided; band ${pct(cell.band_low)} to ${pct(cell.band_high)}; intervals valid at every look</p>` +
    svgBars(cell) + `<p class="side"></p>`;
  box.querySelector(".label").textContent = cell.label;
  box.querySelector(".verdict").textContent = cell.verdict;
  box.querySelector(".side").textContent = cell.side_effects;
}

const STATUS = {
  idle: "Type a change and play it.",
  opened: "A run folder's answer (play to continue from the page).",
  queued: "Waiting for the next round…",
  playing: "Playing a round…",
  decided: "Decided.",
  undetermined: "Stopped at the race cap without a decision.",
  stopped: "Stopped.",
  error: "Error.",
};

function render(state) {
  const s = state.setting;
  $("where").textContent = `${s.game} (${s.preset ?? "its preset"}) on ${s.track ?? "its track"}, ${s.players ?? "?"} players, ${s.skill}` + (state.opened ? ` — opened ${state.opened}` : "");
  let text = STATUS[state.status] || state.status;
  if (state.races) text += ` ${state.races.toLocaleString()} races a cell in ${state.seconds} s.`;
  const status = $("status");
  status.textContent = text;
  status.dataset.status = state.status;
  const p = $("progress");
  p.max = state.max_races; p.value = state.races;
  if (state.status === "decided") p.value = p.max;
  if (state.error) showError("base", state.error);
  const a = state.answer;
  renderCell($("cell-A"), a && a.cells[0]);
  renderCell($("cell-B"), a && a.cells[1]);
  const ul = $("changes");
  ul.innerHTML = "";
  for (const line of (a && a.changes) || []) {
    const li = document.createElement("li"); li.textContent = line; ul.appendChild(li);
  }
  renderWhere(state);
}

function pp(x) { return (x >= 0 ? "+" : "−") + Math.abs(100 * x).toFixed(1) + " pp"; }

function list(lines) {
  const ul = document.createElement("ul");
  for (const line of lines) { const li = document.createElement("li"); li.textContent = line; ul.appendChild(li); }
  return ul;
}

function renderWhere(state) {
  const box = $("where-cells");
  box.innerHTML = "";
  if (state.asked) { box.textContent = "Replaying races…"; return; }
  for (const w of state.where || []) {
    const div = document.createElement("div");
    div.className = "where-cell";
    div.id = `where-${w.name}`;
    const h = document.createElement("h3");
    h.textContent = w.replays ? `${w.name}: over ${w.replays} races replayed` : `${w.name}: this game has no seat events to replay`;
    div.appendChild(h);
    w.slots.forEach((s, i) => {
      const p = document.createElement("p");
      p.textContent = `Slot ${s.slot} wins ${pct(s.rate)} (${pp(s.deviation)} from fair)` + (i ? ", at the other end:" : ", furthest from fair:");
      div.appendChild(p);
      div.appendChild(list(s.lines));
    });
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = w.picture ? `The track: ${w.picture_note}; the worst spaces before the finish line ringed:` : `No track picture: ${w.picture_note}.`;
    div.appendChild(note);
    if (w.picture) {
      div.appendChild(list(w.marks));
      const img = document.createElement("img");
      img.src = `/api/pages/${page}/pictures/${w.picture}?v=${state.version}`;
      img.alt = `track of ${w.name}: ${w.picture_note}`;
      div.appendChild(img);
    }
    box.appendChild(div);
  }
}

function listen() {
  if (source) source.close();
  source = new EventSource(`/api/pages/${page}/events`);
  source.addEventListener("state", (e) => render(JSON.parse(e.data)));
}

async function start() {
  const opts = await (await fetch("/api/options")).json();
  $("params").textContent = opts.parameters.join(", ");
  $("parts").textContent = opts.track_parts.join(", ");
  for (const b of opts.bots) { const o = document.createElement("option"); o.value = b; $("bots").appendChild(o); }
  const state = await post("/api/pages");
  page = state.page;
  fill(state);
  render(state);
  listen();
}

$("form").addEventListener("submit", async (e) => {
  e.preventDefault();
  clearErrors();
  await post(`/api/pages/${page}/play`, {
    change: $("change").value, players: $("players").value,
    skill: $("skill").value, tolerance: $("tolerance").value,
  });
});

$("ask-where").addEventListener("click", () => { clearErrors(); post(`/api/pages/${page}/where`); });

$("stop").addEventListener("click", () => post(`/api/pages/${page}/stop`));

$("save-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  clearErrors();
  $("saved").textContent = "Saving…";
  const r = await post(`/api/pages/${page}/save`, { name: $("save-name").value });
  $("saved").textContent = r ? `Saved ${r.scenario} and ${r.run}: ${r.report}; ${r.resume}` : "";
  if (r) $("saved").dataset.run = r.run;
});

start();
