// bjexact's calculator page: the form's rules become a query (the shareable link), and every
// panel is filled from the HTTP API under /api/ with exact "p/q" values. No library, no network
// but this server.
"use strict";

const form = document.getElementById("rules");
let defaults = {};       // the default rules, from /api/defaults
let generation = 0;      // answers to an older query than the form's are dropped
let cellClick = 0;       // a cell's answer is shown only if no other cell was clicked since
const YES = new Set(["true", "1", "yes", "on", ""]);

const $ = (id) => document.getElementById(id);

function percent(value, places = 4) {
  return (100 * value).toFixed(places) + " %";
}

// --- the form and the query -------------------------------------------------------------------

function controlValue(name) {
  const control = form.elements[name];
  if (control.type === "checkbox") return control.checked ? "true" : "false";
  return control.value;
}

// a yes/no rule: a checkbox, or a rule whose default is true or false (h17, a select)
function isYesNo(name) {
  const control = form.elements[name];
  return typeof defaults[name] === "boolean" || (control !== undefined && control.type === "checkbox");
}

function defaultValue(name) {
  const value = defaults[name];
  // a rule /api/defaults leaves out is off: no for a yes/no rule, none for Charlie
  if (value === undefined || value === null) return isYesNo(name) ? "false" : "";
  return String(value);
}

// the rules that differ from the defaults, as the API reads them
function query() {
  const params = new URLSearchParams();
  const decks = controlValue("decks");
  if (decks === "shoe") params.set("shoe", form.elements.shoe.value.replace(/\s+/g, ""));
  else if (decks !== defaultValue("decks")) params.set("decks", decks);
  for (const control of form.elements) {
    const name = control.name;
    if (!name || name === "decks" || name === "shoe") continue;
    const value = controlValue(name);
    if (value !== defaultValue(name)) params.set(name, value);
  }
  return params.toString().replace(/%2C/g, ",").replace(/%2F/g, "/");
}

// a value of a link in the form's words: yes/no rules as true/false, a payout as p/q ("6:5", "1" too)
function normalized(name, value) {
  if (value === null || value === undefined) return "";
  const text = String(value).trim();
  if (isYesNo(name)) {
    return YES.has(text.toLowerCase()) ? "true" : "false";
  }
  if (name === "bj_pays") return text.includes("/") ? text : text.includes(":") ? text.replace(":", "/") : `${text}/1`;
  return text;
}

function setControl(name, value) {
  const control = form.elements[name];
  if (!control) return;
  const text = normalized(name, value);
  if (control.type === "checkbox") {
    control.checked = text === "true";
  } else if (control.tagName === "SELECT") {
    // a value the list lacks (3 decks, split to 6 hands, 8-card Charlie) joins it, so that a link
    // always shows the rules it computes
    if (![...control.options].some((option) => option.value === text)) control.add(new Option(text, text));
    control.value = text;
  } else {
    control.value = text;
  }
}

function formFromQuery(search) {
  for (const [name, value] of Object.entries(defaults)) setControl(name, value);
  const params = new URLSearchParams(search);
  for (const [key, value] of params) setControl(key.replace(/-/g, "_"), value);
  if (params.has("shoe")) setControl("decks", "shoe");
  showShoe();
}

function showShoe() {
  $("shoe-label").hidden = controlValue("decks") !== "shoe";
}

// --- asking the API ---------------------------------------------------------------------------

async function ask(path, q, extra = "") {
  const response = await fetch(`/api/${path}?${q}${q && extra ? "&" : ""}${extra}`);
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = (await response.json()).error || message; } catch (e) { /* not JSON */ }
    throw new Error(message);
  }
  return path === "chart" && extra.includes("format=svg") ? response.text() : response.json();
}

function showError(error) {
  $("error").textContent = error.message;
  $("error").hidden = false;
}

async function watchProgress(q, mine) {
  // while the answers of this query are solved, say how far the solve is
  while (mine === generation) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (mine !== generation || $("progress").dataset.done === "true") break;
    try {
      const state = await ask("progress", q);
      if (mine !== generation) break;
      const count = state.total ? ` ${state.done}/${state.total}` : "";
      $("progress").textContent = state.solving ? `Solving exactly: ${state.stage}${count}…` : "";
      $("progress").hidden = !state.solving;
    } catch (e) { break; }
  }
}

// --- the panels -------------------------------------------------------------------------------

function showNumber(button, fraction, value) {
  // a percentage; a click shows the exact fraction per unit initial bet, and back
  button.dataset.exact = fraction;
  button.dataset.percent = percent(value);
  button.textContent = button.dataset.percent;
  button.classList.remove("exact");
}

function toggleExact(event) {
  const button = event.currentTarget;
  if (!button.dataset.exact) return;
  const exact = !button.classList.contains("exact");
  button.classList.toggle("exact", exact);
  button.textContent = exact ? button.dataset.exact + " of the initial bet" : button.dataset.percent;
}

function table(headers, rows) {
  const head = "<tr>" + headers.map((h) => `<th>${h}</th>`).join("") + "</tr>";
  return "<table>" + head + rows.map((r) => "<tr>" + r.join("") + "</tr>").join("") + "</table>";
}

function cellOf(value, exact) {
  return `<td title="${exact}">${percent(value)}</td>`;
}

function showDealer(doc) {
  const outcomes = doc.outcomes;
  const rows = Object.entries(doc.table).map(([upcard, row]) =>
    [`<td>${upcard}</td>`].concat(outcomes.map((o) => cellOf(fractionValue(row[o]), row[o]))));
  $("dealer").innerHTML = table(["up-card"].concat(outcomes), rows) +
    '<p class="note">Chance of each final outcome given the up-card (hover for the exact fraction); ' +
    "a dealer natural is its own outcome.</p>";
  $("dealer").classList.remove("stale");
}

function fractionValue(text) {
  const [p, q] = text.split("/");
  return q === undefined ? Number(p) : Number(p) / Number(q);
}

function showEffects(doc) {
  const rows = [[`<td>these rules</td>`, cellOf(doc.house_edge_float, doc.house_edge), "<td></td>"]];
  for (const change of doc.changes) {
    rows.push([`<td>${change.rule}</td>`, cellOf(change.house_edge_float, change.house_edge),
      `<td title="${change.change}">${change.change_float >= 0 ? "+" : ""}${(100 * change.change_float).toFixed(4)}</td>`]);
  }
  let html = table(["rule change", "house edge", "change (points)"], rows);
  html += '<p class="note">The exact house edge under optimal play with one rule changed; a positive change ' +
    "favours the house.</p>";
  for (const skipped of doc.unsolved) html += `<p class="note">${skipped.rule}: ${skipped.reason}</p>`;
  $("effects").innerHTML = html;
}

function showChart(svg, q) {
  $("chart").innerHTML = svg;
  $("chart").classList.remove("stale");
  $("cell").hidden = true;
  for (const cell of $("chart").querySelectorAll(".cell[data-section]")) {
    // a button for the keyboard and screen readers too
    const { section, row, upcard } = cell.dataset;
    cell.setAttribute("tabindex", "0");
    cell.setAttribute("role", "button");
    cell.setAttribute("aria-label", `${section} ${row} v ${upcard}: ${cell.dataset.code}; show its hands`);
    cell.addEventListener("click", () => showCell(cell, q));
    cell.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        showCell(cell, q);
      }
    });
  }
}

async function showCell(cell, q) {
  if (q !== query()) return;  // a chart of rules the form no longer holds
  for (const chosen of $("chart").querySelectorAll(".cell.chosen")) chosen.classList.remove("chosen");
  cell.classList.add("chosen");
  const { section, row, upcard } = cell.dataset;
  const panel = $("cell");
  panel.hidden = false;
  panel.innerHTML = `<h3>${section} ${row} v ${upcard}</h3><p class="note">solving…</p>`;
  const mine = generation;
  const click = ++cellClick;
  try {
    const answer = await ask("cell", q, new URLSearchParams({ section, row, upcard }).toString());
    if (mine !== generation || click !== cellClick) return;
    let html = `<h3>${section} ${row} v ${upcard}: ${answer.code}</h3>`;
    for (const hand of answer.hands) {
      const best = hand.moves[hand.best];
      const rows = Object.entries(hand.moves)
        .sort((a, b) => hand.moves_float[b[0]] - hand.moves_float[a[0]])
        .map(([move, exact]) => {
          const value = hand.moves_float[move];
          const cost = move === hand.best ? "best" : percent(fractionValue(best) - value);
          return [`<td>${move}</td>`, `<td>${percent(value)}</td>`,
            `<td>${cost}</td></tr><tr class="exact"><td colspan="3">= ${exact}</td>`];
        });
      html += `<h3 class="hand">${hand.cards.join(",")} v ${hand.upcard}: ${hand.best}</h3>`;
      html += table(["move", "value (exact below)", "cost"], rows);
    }
    html += '<p class="note">Values per unit initial bet';
    html += answer.hands.some((h) => h.conditioned_on_no_dealer_natural)
      ? ", given no dealer natural (the dealer peeked).</p>" : ".</p>";
    panel.innerHTML = html;
  } catch (error) {
    if (mine === generation && click === cellClick) panel.innerHTML = `<p class="note">${error.message}</p>`;
  }
}

// the rules cannot be solved: nothing of earlier rules stays on the page
function clearResults() {
  for (const id of ["edge-optimal", "edge-chart"]) {
    $(id).textContent = "—";
    delete $(id).dataset.exact;
  }
  for (const id of ["chart", "dealer", "effects"]) {
    $(id).innerHTML = "";
    $(id).classList.remove("stale");
  }
  $("cell").hidden = true;
  for (const link of document.querySelectorAll(".downloads a")) link.removeAttribute("href");
}

function setDownloads(q) {
  const links = { "dl-edge-csv": ["edge", "csv"], "dl-edge-json": ["edge", "json"],
    "dl-chart-csv": ["chart", "csv"], "dl-chart-json": ["chart", "json"], "dl-chart-svg": ["chart", "svg"],
    "dl-dealer-csv": ["dealer", "csv"], "dl-dealer-json": ["dealer", "json"] };
  for (const [id, [path, format]] of Object.entries(links)) {
    $(id).href = `/api/${path}?${q}${q ? "&" : ""}format=${format}`;
    $(id).download = `${path}.${format}`;
  }
}

// --- one update: everything for the form's rules ----------------------------------------------

async function update() {
  showShoe();
  const q = query();
  const mine = ++generation;
  history.replaceState(null, "", q ? `/?${q}` : "/");
  $("share").href = location.href;
  $("share").textContent = location.href;
  $("error").hidden = true;
  $("progress").dataset.done = "false";
  $("progress").hidden = true;
  for (const id of ["edge-optimal", "edge-chart"]) {
    $(id).textContent = "…";
    delete $(id).dataset.exact;
  }
  setDownloads(q);
  // the previous rules' panels stay until this query's answers arrive, greyed
  for (const id of ["chart", "dealer", "effects"]) $(id).classList.add("stale");
  $("cell").hidden = true;
  watchProgress(q, mine);
  const steps = [
    ask("edge", q).then((d) => mine === generation && showNumber($("edge-optimal"), d.house_edge, d.house_edge_float)),
    ask("chart", q, "format=svg").then((svg) => mine === generation && showChart(svg, q)),
    ask("edge", q, "strategy=chart").then((d) => mine === generation &&
      showNumber($("edge-chart"), d.house_edge, d.house_edge_float)),
    ask("dealer", q).then((d) => mine === generation && showDealer(d)),
  ];
  try {
    await Promise.all(steps);
    if (mine !== generation) return;
    $("effects").innerHTML = '<p class="note">solving each changed rule set…</p>';
    const effects = await ask("effects", q);
    if (mine !== generation) return;
    showEffects(effects);
    $("effects").classList.remove("stale");
  } catch (error) {
    if (mine === generation) {
      showError(error);
      clearResults();
    }
  } finally {
    if (mine === generation) {
      $("progress").dataset.done = "true";
      $("progress").hidden = true;
      document.body.dataset.ready = "true";
    }
  }
}

async function start() {
  defaults = (await ask("defaults", "")).rules;
  formFromQuery(location.search);
  for (const id of ["edge-optimal", "edge-chart"]) $(id).addEventListener("click", toggleExact);
  let waiting = null;
  form.addEventListener("change", () => {
    // a burst of changes (arrow keys through a list) asks once, for where it ends
    document.body.dataset.ready = "false";
    clearTimeout(waiting);
    waiting = setTimeout(update, 250);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  update();
}

start();
