//! Reading the parts of a JSON report or solution that several suites check.

use serde_json::Value;

/// A JSON array of `[row, col]` pairs, such as a route or the tiles that
/// can be left.
pub fn cells(value: &Value) -> Vec<(usize, usize)> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as usize, p[1].as_u64().unwrap() as usize))
        .collect()
}

/// A JSON array of rows of integers, such as a csp solution's 2-d array.
pub fn int_grid(json: &Value) -> Vec<Vec<i64>> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect())
        .collect()
}

/// The variables and clauses of the formula that a report's `stats`, or
/// `encode`'s summary, describe.
pub fn formula_size(stats: &Value) -> (u64, u64) {
    (stats["variables"].as_u64().unwrap(), stats["clauses"].as_u64().unwrap())
}
