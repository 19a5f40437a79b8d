#!/usr/bin/env node
// pzprjs's own checker as a brute-force counter for somaria's tests: for
// each puzzle, every way of filling the answer's slots is set on pzprjs's
// board and judged by `puzzle.check(true)`; the complete ones are counted.
// Nothing of somaria is used: the URL is read by pzprjs, the rules are
// pzprjs's.
//
//   node pzpr-brute.js < JOBS     one JSON object a line:
//     {"url": URL, "slots": [{"group": "cell"|"border"|"cross", "prop": "qans"|"anum"|"line"|...,
//                             "values": [0, 1], "where": "all"|"empty"|"inner"}],
//      "limit": N}
//   prints one line per job: {"count": n, "complete": bool, "slots": k, "first": pzprv3 text or null}
//
// A value pzprjs's board refuses for an item (a shaded number in nurikabe)
// is skipped, so no filling is counted twice ("white" keeps the cells
// with no ques, a kakuro's white cells, whose qnum is 0); so is a number outside the
// cell's own range (getminnum..getmaxnum; -1, no number, always stays). A slot with "straight" keeps
// only lines that go straight through the cells without a number, as
// pzprjs's input draws a hashikake's bridges (its checker assumes it). "empty" keeps the items
// without a clue (qnum -1, ques 0), "inner" the borders between two cells.
"use strict";
const pzpr = require("pzpr");

function items(puzzle, slot) {
	const list = puzzle.board[slot.group];
	const out = [];
	for (let i = 0; i < list.length; i++) {
		const item = list[i];
		const clued = item.qnum !== -1 || item.ques !== 0 || (item.qnums && item.qnums.length > 0);
		if (slot.where === "empty" && clued) {
			continue;
		}
		if (slot.where === "inner" && (item.sidecell[0].isnull || item.sidecell[1].isnull)) {
			continue;
		}
		if (slot.where === "white" && item.ques !== 0) {
			continue;
		}
		// A number beyond what pzprjs lets a player enter in the cell (a
		// ripple's digit above its room's size) is no answer, though the
		// checker, which relies on the input, would not object.
		let values = slot.values;
		if (slot.prop === "anum" && typeof item.getmaxnum === "function") {
			const lo = item.getminnum(),
				hi = item.getmaxnum();
			values = values.filter((v) => v === -1 || (v >= lo && v <= hi));
		}
		out.push({ item: item, prop: slot.prop, values: values });
	}
	return out;
}

function count(job) {
	const puzzle = new pzpr.Puzzle({ type: "player" });
	puzzle.open(job.url);
	puzzle.opemgr.disableRecord();
	let places = [];
	for (const slot of job.slots) {
		places = places.concat(items(puzzle, slot));
	}
	const straight = job.slots.some((s) => s.straight);
	const limit = job.limit || 1000;
	let found = 0;
	let first = null;
	let stopped = false;
	function visit(depth) {
		if (stopped) {
			return;
		}
		if (depth === places.length) {
			if (straight && !allStraight(puzzle)) {
				return;
			}
			if (puzzle.check(true).complete) {
				found++;
				if (first === null) {
					first = puzzle.getFileData();
				}
				if (found > limit) {
					stopped = true;
				}
			}
			return;
		}
		const place = places[depth];
		const before = place.item[place.prop];
		for (const v of place.values) {
			place.item.setdata(place.prop, v);
			if (place.item[place.prop] === v) {
				visit(depth + 1);
			}
		}
		place.item.setdata(place.prop, before);
	}
	visit(0);
	return { count: found, complete: !stopped, slots: places.length, first: first };
}

function allStraight(puzzle) {
	const cells = puzzle.board.cell;
	for (let i = 0; i < cells.length; i++) {
		const cell = cells[i];
		if (cell.qnum !== -1) {
			continue;
		}
		const line = (b) => (b.isnull ? 0 : b.line);
		const a = cell.adjborder;
		const [t, b, l, r] = [line(a.top), line(a.bottom), line(a.left), line(a.right)];
		if (t !== b || l !== r || (t > 0 && l > 0)) {
			return false;
		}
	}
	return true;
}

const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
for (const line of lines) {
	let result;
	try {
		result = count(JSON.parse(line));
	} catch (e) {
		result = { error: String(e && e.stack) };
	}
	process.stdout.write(JSON.stringify(result) + "\n");
}
