//! `somaria play`'s server, with no sockets: a request (method, path,
//! `Host`, body) in, a response (status, type, body) out. The command line
//! puts it behind an HTTP listener; tests call [`Server::handle`] directly.
//!
//! It serves one page (HTML, CSS and JavaScript embedded in the binary)
//! and a JSON API over planner sessions ([`session::Session`]), one per
//! page, on the models it was given: a request names a model by its name in
//! the listing, never by a path, so nothing but those files is read. It
//! refuses a request whose `Host` is not the served address (DNS
//! rebinding), a body over the cap, JSON that does not parse and routes it
//! does not know, each as JSON `{"error": ...}` with the command line's
//! message. Every question runs under the per-request deadline and the
//! memory cap; live sessions are capped, and idle ones dropped.

mod api;
mod generate;
mod rating;
pub mod session;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::genres;
use crate::model::Source;
use crate::puzzles::{Error, SolveOptions};
use session::Session;

pub use api::Request;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Each request's deadline.
    pub timeout: Duration,
    /// The deadline of a model's difficulty rating, made in the background.
    pub rating_time: Duration,
    /// The most bytes the process may hold while a question runs.
    pub memory: Option<u64>,
    /// The most live sessions; past it the one idle longest is dropped.
    pub max_sessions: usize,
    /// A session unused this long is dropped.
    pub idle: Duration,
    /// The largest request body, in bytes.
    pub body_cap: usize,
    /// The `Host` headers taken (such as `127.0.0.1:8080`), compared
    /// without case.
    pub hosts: Vec<String>,
    /// The solvers' options (the backend); each session adds its own stop.
    pub options: SolveOptions,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            timeout: Duration::from_secs(10),
            rating_time: Duration::from_secs(60),
            memory: None,
            max_sessions: 16,
            idle: Duration::from_secs(30 * 60),
            body_cap: 64 << 10,
            hosts: Vec::new(),
            options: SolveOptions::default(),
        }
    }
}

/// A response: the HTTP status, the content type and the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    fn json(status: u16, value: &serde_json::Value) -> Response {
        Response { status, content_type: "application/json", body: value.to_string().into_bytes() }
    }

    /// A refusal: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }

    /// The body as text, for logs and tests.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A model the server plays: its name in the listing and its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Served {
    /// The name a page asks for it by: its path under the folder given,
    /// with `/` between parts, the file's name, or the URL.
    pub name: String,
    /// Where its text comes from.
    pub origin: Origin,
}

/// Where a served model's text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A model file, read at each open (so an edit shows on the next).
    File(PathBuf),
    /// A puzz.link URL: its genre's model with the URL's parameters.
    Url(String),
}

impl Served {
    /// The model's text.
    pub fn source(&self) -> Result<Source, String> {
        match &self.origin {
            Origin::File(path) => Source::read(path).map_err(|e| e.to_string()),
            Origin::Url(url) => {
                let instance = genres::decode(url).map_err(|e| e.to_string())?;
                genres::model_of(instance.as_ref()).map_err(|e| e.to_string())
            }
        }
    }

    /// The puzzle: a model of any kind, or a genre's puzzle file.
    pub fn puzzle(&self) -> Result<Box<dyn crate::puzzles::Puzzle>, String> {
        Ok(genres::open_source(self.source()?).map_err(|e| e.to_string())?.puzzle)
    }
}

/// The model of a puzz.link URL, served under the URL as its name; the
/// URL's error when it does not decode.
pub fn served_url(url: &str) -> Result<Vec<Served>, Error> {
    genres::decode(url).map_err(|e| Error::BadRequest(e.to_string()))?;
    Ok(vec![Served { name: url.to_string(), origin: Origin::Url(url.to_string()) }])
}

/// The models to serve from `path`: the file itself, or every `.toml`
/// file under the folder, in name order.
pub fn served(path: &Path) -> Result<Vec<Served>, Error> {
    let cannot = |e: std::io::Error| Error::BadRequest(format!("{}: cannot read: {e}", path.display()));
    if !path.metadata().map_err(cannot)?.is_dir() {
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        return Ok(vec![Served { name, origin: Origin::File(path.to_path_buf()) }]);
    }
    let mut found = Vec::new();
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(cannot)? {
            let file = entry.map_err(cannot)?.path();
            if file.is_dir() {
                folders.push(file);
            } else if file.extension().is_some_and(|e| e == "toml")
                && let Ok(under) = file.strip_prefix(path)
            {
                let parts: Vec<String> = under.components().map(|c| c.as_os_str().to_string_lossy().into()).collect();
                found.push(Served { name: parts.join("/"), origin: Origin::File(file) });
            }
        }
    }
    if found.is_empty() {
        return Err(Error::BadRequest(format!(
            "{}: no .toml model in the folder; expected a model or a folder of models",
            path.display()
        )));
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// A live session and when it was last asked.
struct Live {
    session: Arc<Session>,
    model: String,
    used: Instant,
}

/// The server: its models, its sessions and how it runs.
pub struct Server {
    config: Config,
    models: Vec<Served>,
    sessions: Mutex<HashMap<String, Live>>,
    /// Makes session names that a page cannot guess.
    names: Mutex<crate::rng::SplitMix64>,
    /// The new puzzles being made, for their progress.
    runs: generate::Runs,
    /// The served models' difficulty ratings.
    ratings: rating::Ratings,
}

impl Server {
    /// A server of `models` under `config`.
    pub fn new(models: Vec<Served>, config: Config) -> Server {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id());
        Server {
            config,
            models,
            sessions: Mutex::new(HashMap::new()),
            names: Mutex::new(crate::rng::SplitMix64::new(seed)),
            runs: generate::Runs::default(),
            ratings: rating::Ratings::default(),
        }
    }

    /// The models served.
    pub fn models(&self) -> &[Served] {
        &self.models
    }

    /// The number of live sessions.
    pub fn live_sessions(&self) -> usize {
        self.sessions.lock().map_or(0, |s| s.len())
    }

    /// Answers one request; see the module documentation.
    pub fn handle(&self, request: &Request<'_>) -> Response {
        if let Err(refused) = self.admit(request) {
            return refused;
        }
        api::route(self, request)
    }

    /// The checks every request passes before its route: the `Host` and
    /// the body's size.
    fn admit(&self, request: &Request<'_>) -> Result<(), Response> {
        let Some(host) = request.host else {
            return Err(Response::error(400, "no Host header; expected the address the server printed"));
        };
        if !self.config.hosts.iter().any(|h| h.eq_ignore_ascii_case(host.trim())) {
            let expected = self.config.hosts.join(" or ");
            return Err(Response::error(403, format!("Host {host:?} is not this server; expected {expected}")));
        }
        if request.body.len() > self.config.body_cap {
            let cap = self.config.body_cap;
            return Err(Response::error(
                413,
                format!("a body of {} bytes; expected at most {cap}", request.body.len()),
            ));
        }
        Ok(())
    }

    /// The served model named `model`.
    fn served(&self, model: &str) -> Result<&Served, Response> {
        self.models.iter().find(|m| m.name == model).ok_or_else(|| {
            let names: Vec<String> = self.models.iter().map(|m| m.name.clone()).collect();
            let names = crate::puzzles::listed(&names, 8);
            Response::error(404, format!("no model is named {model:?}; expected one of {names}"))
        })
    }

    /// A new session on `puzzle` (the served model named `model`, or a
    /// puzzle made from it), under its new name.
    fn open(&self, model: &str, puzzle: Arc<dyn crate::puzzles::Puzzle>) -> Result<(String, Arc<Session>), Response> {
        let session = Session::start(puzzle, &self.config.options).map_err(api::refusal)?;
        let session = Arc::new(session);
        let mut sessions = self.sessions.lock().map_err(|_| Response::error(500, "the sessions' lock was poisoned"))?;
        self.drop_idle_of(&mut sessions);
        while sessions.len() >= self.config.max_sessions.max(1) {
            let idle = sessions.iter().filter(|(_, l)| !l.session.is_busy()).min_by_key(|(_, l)| l.used);
            let Some(name) = idle.map(|(name, _)| name.clone()) else {
                return Err(Response::error(503, "every session is busy; expected a request when one is done"));
            };
            sessions.remove(&name);
        }
        let name = {
            let mut names = self.names.lock().map_err(|_| Response::error(500, "the names' lock was poisoned"))?;
            format!("{:016x}", names.next_u64())
        };
        sessions.insert(
            name.clone(),
            Live { session: Arc::clone(&session), model: model.to_string(), used: Instant::now() },
        );
        Ok((name, session))
    }

    /// Drops the sessions idle past the configured time (busy ones stay);
    /// how many were dropped.
    pub fn drop_idle(&self) -> usize {
        self.sessions.lock().map_or(0, |mut sessions| self.drop_idle_of(&mut sessions))
    }

    fn drop_idle_of(&self, sessions: &mut HashMap<String, Live>) -> usize {
        let before = sessions.len();
        sessions.retain(|_, live| live.used.elapsed() < self.config.idle || live.session.is_busy());
        before - sessions.len()
    }

    /// Drops idle sessions every `period` on a thread of its own, so an
    /// idle page's solvers go even when no new page opens; the thread ends
    /// with the server.
    pub fn drop_idle_every(self: &Arc<Self>, period: Duration) -> std::io::Result<()> {
        let server = Arc::downgrade(self);
        std::thread::Builder::new().name("play idle sessions".into()).spawn(move || {
            loop {
                std::thread::sleep(period);
                match server.upgrade() {
                    Some(server) => server.drop_idle(),
                    None => return,
                };
            }
        })?;
        Ok(())
    }

    /// The live session named `name`, and its model's name.
    fn session(&self, name: &str) -> Result<(Arc<Session>, String), Response> {
        let mut sessions = self.sessions.lock().map_err(|_| Response::error(500, "the sessions' lock was poisoned"))?;
        match sessions.get_mut(name) {
            Some(live) => {
                live.used = Instant::now();
                Ok((Arc::clone(&live.session), live.model.clone()))
            }
            None => Err(Response::error(
                404,
                format!(
                    "no session is named {name:?}; it may have been idle too long; expected a new one from POST /api/sessions"
                ),
            )),
        }
    }

    /// Ends the session named `name`; whether there was one.
    fn close(&self, name: &str) -> bool {
        self.sessions.lock().is_ok_and(|mut s| s.remove(name).is_some())
    }
}
