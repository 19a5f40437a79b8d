//! `somaria play`: the library's play server ([`somaria::play::Server`])
//! behind an HTTP listener. tiny_http rather than axum: the sessions are
//! threads with inboxes (their solvers are not `Send`), so a blocking
//! server with a few worker threads fits them as they are, with no async
//! runtime (tokio) to build and nothing to bridge.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use somaria::limits::memory;
use somaria::play::{Config, Request, Response, Server, served, served_url};
use somaria::puzzles::SolveOptions;
use somaria::solver::{Backend, SolverConfig};

use super::Failure;

/// The arguments of `somaria play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// A model file, a folder whose .toml models the page lists, or a puzz.link URL.
    pub model: PathBuf,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Each request's deadline, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,
    /// The deadline of each model's difficulty rating, made in the background when a page opens it, in
    /// seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub rating_timeout: f64,
    /// Stop a request when the process holds more than SIZE of memory, such as 512M or 2G [default: half of
    /// the machine's memory].
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub memory_limit: Option<u64>,
    /// The most live sessions (pages); past it the one idle longest is dropped.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub sessions: usize,
    /// The SAT backend.
    #[arg(long, value_name = "NAME", default_value_t = Backend::default())]
    pub solver: Backend,
}

/// Worker threads answering requests; each waits on its session's answer.
const WORKERS: usize = 8;

/// Runs the server until the process ends.
pub fn run(args: PlayArgs) -> Result<u8, Failure> {
    if !(args.timeout > 0.0 && args.timeout <= 31_536_000.0) {
        return Err(Failure::bad_input(format!("--timeout {}: expected seconds from 0.001 to 31536000", args.timeout)));
    }
    if !(args.rating_timeout > 0.0 && args.rating_timeout <= 31_536_000.0) {
        return Err(Failure::bad_input(format!(
            "--rating-timeout {}: expected seconds from 0.001 to 31536000",
            args.rating_timeout
        )));
    }
    let text = args.model.to_string_lossy();
    let models = match somaria::genres::is_url(&text) {
        true => served_url(&text),
        false => served(&args.model),
    };
    let models = models.map_err(|e| Failure::bad_input(e.to_string()))?;
    let listener = tiny_http::Server::http(SocketAddr::new(args.host, args.port))
        .map_err(|e| Failure::bad_input(format!("--host {} --port {}: cannot listen: {e}", args.host, args.port)))?;
    let port = listener.server_addr().to_ip().map_or(args.port, |a| a.port());
    let address = match args.host {
        IpAddr::V6(ip) => format!("[{ip}]:{port}"),
        IpAddr::V4(ip) => format!("{ip}:{port}"),
    };
    let mut hosts = vec![address.clone()];
    if args.host.is_loopback() {
        for other in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("[::1]:{port}")] {
            if !hosts.contains(&other) {
                hosts.push(other);
            }
        }
    }
    let config = Config {
        timeout: Duration::from_secs_f64(args.timeout),
        rating_time: Duration::from_secs_f64(args.rating_timeout),
        memory: Some(args.memory_limit.unwrap_or_else(memory::default_cap)),
        max_sessions: args.sessions.max(1),
        hosts,
        options: SolveOptions {
            solver: SolverConfig { backend: args.solver, ..SolverConfig::default() },
            ..SolveOptions::default()
        },
        ..Config::default()
    };
    let body_cap = config.body_cap;
    let idle = config.idle;
    let server = Arc::new(Server::new(models, config));
    // Idle pages' solvers go on a timer, not only when a new page opens.
    server
        .drop_idle_every((idle / 4).min(Duration::from_secs(60)))
        .map_err(|e| Failure::bad_input(format!("cannot start the idle sessions' timer: {e}")))?;
    let listener = Arc::new(listener);
    let url = format!("http://{address}/");
    println!("somaria play: serving {} at {url}", args.model.display());
    if args.open {
        open_browser(&url);
    }
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, listener) = (Arc::clone(&server), Arc::clone(&listener));
            std::thread::spawn(move || {
                while let Ok(request) = listener.recv() {
                    answer(&server, request, body_cap);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Ok(0)
}

/// Answers one request and logs it: method, path, status, bytes, time.
fn answer(server: &Server, mut request: tiny_http::Request, body_cap: usize) {
    let started = Instant::now();
    let host = request.headers().iter().find(|h| h.field.equiv("Host")).map(|h| h.value.as_str().to_string());
    let mut body = Vec::new();
    // One byte past the cap is enough to refuse the body.
    let read = request.as_reader().take(body_cap as u64 + 1).read_to_end(&mut body);
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let response = match read {
        Err(e) => Response::error(400, format!("cannot read the body: {e}")),
        Ok(_) => server.handle(&Request { method: &method, url: &url, host: host.as_deref(), body: &body }),
    };
    eprintln!(
        "{method} {} {} {} bytes {:.1} ms",
        url.escape_debug(),
        response.status,
        response.body.len(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    let mut reply = tiny_http::Response::from_data(response.body).with_status_code(response.status);
    for (field, value) in
        [("Content-Type", response.content_type), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
    {
        if let Ok(header) = tiny_http::Header::from_bytes(field.as_bytes(), value.as_bytes()) {
            reply.add_header(header);
        }
    }
    let _ = request.respond(reply);
}

/// Asks the desktop to open `url`; a failure is only reported.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("somaria play: cannot open a browser ({opener}: {e}); open {url}");
    }
}
