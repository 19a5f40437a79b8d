#!/usr/bin/env node
// pzprjs's own engine (the npm package `pzpr`) as an external judge for
// somaria's tests.
//
//   node pzpr-check.js GENRE < FILE   judge the pzprv3 text on standard input:
//                                     {"pid", "complete", "codes", "text"}
//   node pzpr-check.js --url URL      pzpr's reading of a URL:
//                                     {"pid", "url", "file"} (its canonical URL and its question file)
//
// Exit codes: 0 ran; 3 pzpr does not know the genre; 4 the file is of
// another genre; 1 pzpr threw.
"use strict";
const pzpr = require("pzpr");

function print(obj, code) {
	process.stdout.write(JSON.stringify(obj) + "\n");
	process.exit(code);
}

function open(data) {
	const puzzle = new pzpr.Puzzle({ type: "player" });
	try {
		puzzle.open(data);
	} catch (e) {
		print({ error: "pzpr could not open the input: " + (e && e.message) }, 1);
	}
	if (!puzzle.pid) {
		print({ error: "pzpr " + pzpr.version + " does not know this genre" }, 3);
	}
	return puzzle;
}

const args = process.argv.slice(2);
if (args[0] === "--url") {
	const puzzle = open(args[1]);
	print({ pid: puzzle.pid, url: puzzle.getURL(), file: puzzle.getFileData() }, 0);
}
const pid = pzpr.variety.toPID(args[0] || "");
if (!pid) {
	print({ error: "pzpr " + pzpr.version + " does not know genre " + args[0] }, 3);
}
const puzzle = open(require("fs").readFileSync(0, "utf8"));
if (puzzle.pid !== pid) {
	print({ error: "the file is genre " + puzzle.pid + ", expected " + pid }, 4);
}
pzpr.lang = "en";
let verdict;
try {
	verdict = puzzle.check(true);
} catch (e) {
	print({ error: "pzpr threw while checking: " + (e && e.message) }, 1);
}
const codes = [];
for (let i = 0; i < verdict.length; i++) {
	codes.push(verdict[i]);
}
print({ pid: puzzle.pid, complete: !!verdict.complete, codes: codes, text: verdict.text }, 0);
