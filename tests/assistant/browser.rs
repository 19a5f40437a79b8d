//! The play page in real headless Chromium (Debian's `chromium` and
//! `chromium-driver`), driven over WebDriver with fantoccini: the shrine
//! played to solved by clicking fans, a wrong digit in the 17-given Sudoku
//! named by Check, Hint at each reveal level, Fill easy steps then Undo,
//! a reload that keeps the state, a New puzzle rated on the page (and kept
//! by a reload), and a slitherlink's side drawn and crossed out by clicks. A screenshot of each case is saved
//! under `target/browser/`. Without the browser the suite fails under CI
//! (`CI` set: `.ci/run` installs it) and says why elsewhere.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use somaria::hints::{Edit, PlanRequest, Planner};
use somaria::puzzles::SolveOptions;
use somaria::report::steps::Reveal;

/// A child process ended with the test.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `somaria play models` and the address it prints.
fn serve() -> (Running, String) {
    let binary = assert_cmd::cargo::cargo_bin("somaria");
    let mut child = Command::new(binary)
        .args(["play", "models", "--port", "0", "--timeout", "120"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split(" at ").nth(1).expect("the address printed").trim().to_string();
    (Running(child), url)
}

/// chromedriver on a free port, and a headless Chromium session on it;
/// `None` (outside CI) when the browser is not installed.
async fn browser() -> Option<(Running, Client)> {
    let installed = ["/usr/bin/chromium", "/usr/bin/chromedriver"].iter().all(|p| std::path::Path::new(p).exists());
    if !installed {
        assert!(std::env::var_os("CI").is_none(), "chromium and chromium-driver are missing; .ci/run installs them");
        eprintln!("browser suite: chromium or chromedriver missing; apt-get install chromium chromium-driver");
        return None;
    }
    let port = free_port();
    let driver = Command::new("/usr/bin/chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let driver = Running(driver);
    let options = serde_json::json!({
        "binary": "/usr/bin/chromium",
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900"],
    });
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    let started = Instant::now();
    loop {
        let connected = ClientBuilder::native()
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await;
        match connected {
            Ok(client) => return Some((driver, client)),
            Err(e) if started.elapsed() > Duration::from_secs(30) => panic!("cannot drive chromium: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

async fn text_of(client: &Client, css: &str) -> String {
    client.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// Waits until the element's text passes `ok`, and returns it.
async fn wait_for(client: &Client, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        let text = text_of(client, css).await;
        if ok(&text) {
            return text;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{css}: waited for {what}; it shows {text:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn button(client: &Client, name: &str) {
    let found = client.find(Locator::XPath(&format!("//button[text()='{name}']"))).await.unwrap();
    found.click().await.unwrap();
}

async fn cell(client: &Client, (row, col): (usize, usize)) -> fantoccini::elements::Element {
    let css = format!("#board [data-row=\"{row}\"][data-col=\"{col}\"]");
    client.find(Locator::Css(&css)).await.unwrap()
}

async fn screenshot(client: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("../browser");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), client.screenshot().await.unwrap()).unwrap();
}

/// The shrine's answer as the session reaches it by hints: each fan's
/// entry, with the cell it stands on.
fn shrine_answer() -> Vec<(String, (usize, usize))> {
    let puzzle = somaria::load_file("models/akh-vaquot.toml".as_ref()).unwrap();
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    let request = PlanRequest { count_limit: 2, ..PlanRequest::default() };
    while let Some(step) = planner.hint(&request, Reveal::What).unwrap().step {
        for fact in step.facts.iter().filter(|f| f.op == "=") {
            planner.edit(Edit::Enter(format!("{}={}", fact.var, fact.value.as_str().unwrap()))).unwrap();
        }
    }
    let cells = planner.cells().unwrap();
    let place = |name: &str| cells.iter().find(|c| c.name == name).map(|c| c.place).unwrap();
    planner.entries().iter().map(|e| (e.clone(), place(e.split('=').next().unwrap()))).collect()
}

/// A digit no solution has in the Sudoku's top-left cell.
fn wrong_digit() -> u32 {
    let puzzle = somaria::load_file("models/csp/sudoku-17.toml".as_ref()).unwrap();
    let mut planner = Planner::new(puzzle.as_ref(), &SolveOptions::default()).unwrap();
    (1..=9)
        .find(|d| {
            planner.set_entries(vec![format!("cell[1,1]={d}")]).unwrap();
            !planner.check().unwrap().wrong.is_empty()
        })
        .unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn the_page_plays_in_chromium() {
    let (_server, url) = serve();
    let Some((_driver, client)) = browser().await else { return };
    // The shrine, played to solved by clicking fans.
    client.goto(&format!("{url}#model=akh-vaquot.toml")).await.unwrap();
    wait_for(&client, "#entries", "the board", |t| t.contains("No entries")).await;
    for (entry, place) in shrine_answer() {
        for _ in 0..5 {
            if text_of(&client, "#entries").await.contains(&entry) {
                break;
            }
            let before = text_of(&client, "#entries").await;
            cell(&client, place).await.click().await.unwrap();
            wait_for(&client, "#entries", "a turn of the fan", |t| t != before).await;
        }
        assert!(text_of(&client, "#entries").await.contains(&entry), "{entry} never shown");
    }
    button(&client, "Check").await;
    wait_for(&client, "[role=status]", "the check", |t| t.contains("no entry is wrong")).await;
    button(&client, "Hint").await;
    wait_for(&client, "[role=status]", "solved", |t| t.contains("solved")).await;
    screenshot(&client, "shrine-solved").await;

    // A wrong digit in the Sudoku, named by Check.
    let digit = wrong_digit();
    client.goto(&format!("{url}#model=csp%2Fsudoku-17.toml")).await.unwrap();
    client.refresh().await.unwrap();
    wait_for(&client, "#entries", "the board", |t| t.contains("No entries")).await;
    // The puzzle's rating from its start, made in the background.
    wait_for(&client, "#rating", "the puzzle's rating", |t| t.starts_with("Difficulty: rated")).await;
    cell(&client, (0, 0)).await.click().await.unwrap();
    wait_for(&client, "[role=status]", "the cell's prompt", |t| t.contains("type a value")).await;
    client.find(Locator::Css("#board")).await.unwrap().send_keys(&digit.to_string()).await.unwrap();
    wait_for(&client, "#entries", "the digit", |t| t.contains(&format!("cell[1,1]={digit}"))).await;
    button(&client, "Check").await;
    let named = format!("cell[1,1]={digit} cannot be right");
    wait_for(&client, "[role=status]", "the wrong digit named", |t| t.contains(&named)).await;
    screenshot(&client, "sudoku-check").await;

    // A reload keeps the state.
    client.refresh().await.unwrap();
    wait_for(&client, "#entries", "the state after a reload", |t| t.contains(&format!("cell[1,1]={digit}"))).await;
    screenshot(&client, "sudoku-reloaded").await;
    button(&client, "Clear all").await;
    wait_for(&client, "#entries", "no entries", |t| t.contains("No entries")).await;

    // Hint at each level: where gives no value, why its reasons, what the values.
    let reveal = client.find(Locator::Css("#reveal")).await.unwrap();
    for (level, shows) in [("where", "look at"), ("why", "because"), ("what", "new:")] {
        reveal.select_by_value(level).await.unwrap();
        button(&client, "Hint").await;
        let text = wait_for(&client, "[role=status]", level, |t| t.contains(shows)).await;
        if level == "where" {
            assert!(!text.contains("new:") && !text.contains(" = "), "{text}");
        }
        screenshot(&client, &format!("sudoku-hint-{level}")).await;
    }

    // Fill easy steps, then Undo.
    button(&client, "Fill easy steps").await;
    wait_for(&client, "[role=status]", "the easy steps", |t| t.contains("entered by")).await;
    assert!(text_of(&client, "#entries").await.starts_with("Entries:"));
    screenshot(&client, "sudoku-filled").await;
    button(&client, "Undo").await;
    wait_for(&client, "#entries", "the undo", |t| t.contains("No entries")).await;
    screenshot(&client, "sudoku-undone").await;

    // New puzzle: made in the range asked, rated on the page, kept by a reload.
    for (input, value) in [("#lo", "1"), ("#hi", "2")] {
        let field = client.find(Locator::Css(input)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(value).await.unwrap();
    }
    button(&client, "New puzzle").await;
    let rating = wait_for(&client, "#rating", "the new puzzle's rating", |t| t.starts_with("Difficulty: rated")).await;
    let rated: usize = rating["Difficulty: rated ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!((1..=2).contains(&rated), "{rating}");
    wait_for(&client, "[role=status]", "the new puzzle", |t| t.contains("A new puzzle")).await;
    assert!(!client.find(Locator::Css("#progress")).await.unwrap().is_displayed().await.unwrap());
    screenshot(&client, "sudoku-new-puzzle").await;
    client.refresh().await.unwrap();
    wait_for(&client, "#rating", "the same puzzle after a reload", |t| t == rating).await;

    // A slitherlink's sides: a click draws a line, the next crosses it out.
    client.goto(&format!("{url}#model=csp%2Fslitherlink.toml")).await.unwrap();
    client.refresh().await.unwrap();
    wait_for(&client, "#entries", "the board", |t| t.contains("No entries")).await;
    let side = "#board [data-edge=\"side 0 0 across\"]";
    client.find(Locator::Css(side)).await.unwrap().click().await.unwrap();
    wait_for(&client, "#entries", "the side drawn", |t| t.contains("across[0,0]=true")).await;
    screenshot(&client, "slitherlink-side").await;
    client.find(Locator::Css(side)).await.unwrap().click().await.unwrap();
    wait_for(&client, "#entries", "the side crossed out", |t| t.contains("across[0,0]=false")).await;
    client.close().await.unwrap();
}
