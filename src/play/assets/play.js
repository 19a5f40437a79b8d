// The page: one session per page, its state kept in the address
// (#model=NAME&e=ENTRY&e=ENTRY..., with seed=N&lo=L&hi=H for a new puzzle,
// which the server makes again from them), the board drawn by the server.
const $ = (id) => document.getElementById(id);
let session = null;
let view = null;
let selected = null;
let walk = { steps: [], at: 0 };
let pending = null;
let made = null;
let designable = false;

function say(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

let making = null;

async function api(method, path, body) {
  if (pending) pending.abort();
  // A new puzzle still being made is stopped on the server too.
  if (making) fetch(`/api/progress/${making}`, { method: "DELETE" }).catch(() => {});
  making = null;
  const control = new AbortController();
  pending = control;
  const options = { method, signal: control.signal, headers: {} };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  try {
    const response = await fetch(path, options);
    const value = await response.json();
    if (!response.ok) throw new Error(value.error || response.statusText);
    return value;
  } finally {
    if (pending === control) pending = null;
  }
}

function state() {
  const params = new URLSearchParams(location.hash.slice(1));
  const seed = params.get("seed");
  const make = seed === null ? null : { seed: Number(seed), lo: Number(params.get("lo")), hi: Number(params.get("hi")) };
  return { model: params.get("model"), entries: params.getAll("e"), make };
}

function save() {
  const params = new URLSearchParams();
  if (view.model) params.set("model", view.model);
  if (made) for (const key of ["seed", "lo", "hi"]) params.set(key, made[key]);
  for (const e of view.entries) params.append("e", e);
  history.replaceState(null, "", "#" + params.toString());
}

function show(next) {
  const model = view && view.model;
  view = next;
  if (!view.model) view.model = model;
  // The title alone: the kind (csp, fans, ...) is the modeller's word, not the player's.
  $("title").textContent = view.title || view.model;
  $("board").innerHTML = view.svg;
  $("entries").textContent = view.entries.length ? "Entries: " + view.entries.join("; ") : "No entries yet.";
  $("undo").disabled = !view.undo;
  $("redo").disabled = !view.redo;
  if (selected) mark(selected.row, selected.col, "selected");
  save();
}

function mark(row, col, name) {
  const cell = document.querySelector(`#board [data-row="${row}"][data-col="${col}"]`);
  if (cell) cell.classList.add(name);
}

function thing(row, col) {
  return (view.cells || []).find((c) => c.place[0] === row && c.place[1] === col);
}

function text(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

async function edit(body) {
  try {
    show(await api("POST", `/api/sessions/${session}/edit`, body));
  } catch (e) {
    if (e.name !== "AbortError") say(e.message, true);
  }
}

// Turns a thing of few values (a shade, a mark, a fan, a line) to its
// next value, and past the last clears it; true when it has few values.
async function turn(t) {
  let values = t.values.map(text);
  if (values.length > 4) return false;
  // A line or a shade is drawn first, then ruled out (a cross), then cleared.
  if (values.length === 2 && values.includes("true") && values.includes("false")) values = ["true", "false"];
  const current = view.entries.find((e) => e.startsWith(t.name + "=") && !e.includes("!="));
  const at = current ? values.indexOf(current.slice(t.name.length + 1)) : -1;
  if (at + 1 < values.length) await edit({ enter: `${t.name}=${values[at + 1]}` });
  else await edit({ clear: t.name });
  return true;
}

async function clickCell(row, col) {
  selected = { row, col };
  const t = thing(row, col);
  if (!t) return show(view);
  if (!(await turn(t))) {
    show(view);
    say(`${t.name}: type a value (${t.values.map(text).join(", ")}); Backspace clears`);
  }
}

// A line along a side or between two cells: each click turns it.
async function clickEdge(key) {
  const t = (view.edges || []).find((e) => e.key === key);
  if (t) await turn(t);
}

const MOVES = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };

async function key(event) {
  if (MOVES[event.key] && (view.kind === "tile-cover" || view.kind === "keys-doors")) {
    event.preventDefault();
    const current = view.entries.find((e) => e.startsWith("moves="));
    const moves = current ? current.slice(6) : "";
    return edit({ enter: "moves=" + (moves ? moves + "," : "") + MOVES[event.key] });
  }
  if (!selected) return;
  const t = thing(selected.row, selected.col);
  if (!t) return;
  if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    return edit({ clear: t.name });
  }
  if (/^[0-9A-Za-z]$/.test(event.key)) {
    const value = t.values.map(text).find((v) => v.toLowerCase() === event.key.toLowerCase());
    if (value !== undefined) return edit({ enter: `${t.name}=${value}` });
    say(`${event.key} is not a value of ${t.name}`, true);
  }
}

async function question(name, body) {
  say("…");
  try {
    return await api("POST", `/api/sessions/${session}/${name}`, body || {});
  } catch (e) {
    if (e.name !== "AbortError") say(e.message, true);
    return null;
  }
}

async function hint() {
  const answer = await question("hint", { reveal: $("reveal").value });
  if (!answer) return;
  say(answer.text);
  show(view);
  for (const [row, col] of answer.cells) mark(row, col, "hinted");
}

async function check() {
  const answer = await question("check");
  if (answer) say(answer.text);
}

async function fill() {
  const answer = await question("fill");
  if (!answer) return;
  show(answer);
  say(answer.text);
}

function drawWalk() {
  const step = walk.steps[walk.at];
  $("walk").hidden = walk.steps.length === 0;
  if (!step) return;
  $("walk-text").textContent = `Step ${walk.at + 1} of ${walk.steps.length}\n${step.text}`;
  $("walk-board").innerHTML = step.svg;
}

async function steps() {
  const answer = await question("steps");
  if (!answer) return;
  walk = { steps: answer.steps, at: 0 };
  say(`${answer.steps.length} steps; ${answer.text}`);
  const d = answer.difficulty;
  if (d && !made) rating++;
  if (d && !made) $("rating").textContent = `Difficulty from here: rated ${d.largest} (${d.steps} steps, ${d.total} constraints in all)`;
  drawWalk();
}

// Polls the progress of the new puzzle made under `token` until `done`.
function watch(token, done) {
  const started = Date.now();
  $("progress").hidden = false;
  const tick = async () => {
    if (done.now) return;
    let line = `working… ${((Date.now() - started) / 1000).toFixed(0)} s`;
    try {
      const answer = await (await fetch(`/api/progress/${token}`)).json();
      if (answer.running) line += ` · ${answer.checks} checks · ${answer.clues_left} clues left`;
    } catch (e) {
      // The next tick tries again; the request itself reports failures.
    }
    if (done.now) return;
    $("progress-text").textContent = line;
    setTimeout(tick, 250);
  };
  $("progress-text").textContent = "working…";
  tick();
}

// Shows the difficulty rating of the served `model` from its start, which
// the server makes in the background: asked again each second until made,
// and given up when the page opens another puzzle.
let rating = 0;
async function rate(model) {
  const mine = ++rating;
  $("rating").textContent = "Difficulty: being rated…";
  while (mine === rating) {
    try {
      const response = await fetch("/api/ratings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ model }),
      });
      const answer = await response.json();
      if (mine !== rating) return;
      if (!response.ok) {
        $("rating").textContent = `Difficulty: ${answer.error}`;
        return;
      }
      if (!answer.running) {
        $("rating").textContent = `Difficulty: ${answer.text}`;
        return;
      }
    } catch (e) {
      // The next ask tries again.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// Opens a session on `model` (or, with `make`, on a new puzzle made from
// it), with `entries` entered; the page keeps its session on a failure.
async function open(model, entries, make = null) {
  const body = { entries };
  if (model) body.model = model;
  const done = { now: false };
  if (make) {
    // The rating shown is the old puzzle's until the new one is made.
    rating++;
    $("rating").textContent = "";
    const token = Math.random().toString(36).slice(2, 12);
    Object.assign(body, { seed: make.seed, difficulty: [make.lo, make.hi], progress: token });
    say("Making a new puzzle…");
    watch(token, done);
  }
  try {
    const request = api("POST", "/api/sessions", body);
    if (make) making = body.progress;
    const opened = await request;
    session = opened.session;
    made = opened.generated ? { ...make, model: opened.generated.model } : null;
    designable = opened.designable;
    view = null;
    show(opened);
    $("new-puzzle").hidden = !designable;
    $("original").hidden = !made;
    $("download-puzzle").hidden = !made;
    if (made) {
      rating++;
      $("rating").textContent = `Difficulty: ${opened.generated.rating.text}`;
    }
    else rate(opened.model);
    walk = { steps: [], at: 0 };
    drawWalk();
    say(made
      ? `A new puzzle (seed ${make.seed}): ${opened.generated.clues} clues, one solution. Click a cell, then type a value.`
      : "Click a cell, then type a value; ask for a hint when stuck.");
  } catch (e) {
    if (e.name !== "AbortError") say(e.message, true);
  } finally {
    if (make && making === body.progress) making = null;
    done.now = true;
    $("progress").hidden = true;
  }
}

// Hands `text` to the browser as a file named `name`.
function download(name, text, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The entries as a state file for `--given FILE`, or, where the puzzle
// takes none, the entries to pass one by one.
async function downloadState() {
  const answer = await question("state");
  if (!answer) return;
  const stem = view.model.replace(/^.*\//, "").replace(/\.toml$/, "");
  if (answer.state === null) {
    return say(`This puzzle takes no state file; give its entries: ${view.entries.map((e) => `--given '${e}'`).join(" ")}`);
  }
  download(`${stem}-state.json`, JSON.stringify(answer.state, null, 1) + "\n", "application/json");
  say(`Saved ${stem}-state.json: somaria hint ${view.model} --given ${stem}-state.json`);
}

function newPuzzle() {
  const lo = Number($("lo").value);
  const hi = Number($("hi").value);
  if (!(Number.isInteger(lo) && Number.isInteger(hi) && 0 <= lo && lo <= hi)) {
    return say("Difficulty: expected whole numbers from 0 with from <= to", true);
  }
  return open(view.model, [], { seed: Math.floor(Math.random() * 2 ** 31), lo, hi });
}

async function start() {
  $("board").addEventListener("click", (event) => {
    const edge = event.target.closest("[data-edge]");
    const target = event.target.closest("[data-row]");
    if (edge) clickEdge(edge.dataset.edge);
    else if (target) clickCell(Number(target.dataset.row), Number(target.dataset.col));
    $("board").focus();
  });
  document.addEventListener("keydown", key);
  $("hint").addEventListener("click", hint);
  $("check").addEventListener("click", check);
  $("undo").addEventListener("click", () => edit({ undo: true }));
  $("redo").addEventListener("click", () => edit({ redo: true }));
  $("clear").addEventListener("click", () => edit({ clear_all: true }));
  $("fill").addEventListener("click", fill);
  $("steps").addEventListener("click", steps);
  $("generate").addEventListener("click", newPuzzle);
  $("download-state").addEventListener("click", downloadState);
  $("download-puzzle").addEventListener("click", () => {
    const stem = view.model.replace(/^.*\//, "").replace(/\.toml$/, "");
    download(`${stem}-${made.seed}.toml`, made.model, "application/toml");
  });
  $("original").addEventListener("click", () => { made = null; open(view.model, []); });
  $("prev").addEventListener("click", () => { walk.at = Math.max(0, walk.at - 1); drawWalk(); });
  $("next").addEventListener("click", () => { walk.at = Math.min(walk.steps.length - 1, walk.at + 1); drawWalk(); });
  let listing;
  try {
    listing = await api("GET", "/api/models");
  } catch (e) {
    return say(e.message, true);
  }
  const saved = state();
  const model = saved.model && listing.models.includes(saved.model) ? saved.model : listing.models[0];
  if (listing.models.length > 1) {
    $("models-label").hidden = false;
    for (const name of listing.models) $("models").add(new Option(name, name, false, name === model));
    $("models").addEventListener("change", () => { made = null; open($("models").value, []); });
  }
  if (saved.make) {
    $("lo").value = saved.make.lo;
    $("hi").value = saved.make.hi;
  }
  await open(model, saved.model === model ? saved.entries : [], saved.model === model ? saved.make : null);
}

start();
