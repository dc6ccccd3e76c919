//! Progress of the long commands (datagen, train, endgame, puzzles,
//! migrate). On a terminal, indicatif's bar; where stderr is not one (a
//! job started with `nohup`, its output in a log) indicatif draws nothing,
//! and such a job would say nothing for hours, so a plain line with the
//! same counts and the time left goes to stderr once a minute instead,
//! and one more at the end of a job that succeeded.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressStyle};

use crate::Failure;

/// How often a log is told how far the job is.
const LOG_EVERY: Duration = Duration::from_secs(60);

pub struct Progress {
    bar: ProgressBar,
    /// What is counted ("games", "steps"), for the log's lines.
    unit: &'static str,
    /// When the last log line was written; `None` on a terminal.
    logged: Option<Mutex<Instant>>,
}

impl Progress {
    /// A bar drawn with indicatif's `template`, counting `unit`.
    pub fn new(len: u64, template: &str, unit: &'static str) -> Result<Progress, Failure> {
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template(template)
                .map_err(|e| Failure(e.to_string()))?
                .progress_chars("=> "),
        );
        let logged = (!std::io::stderr().is_terminal()).then(|| Mutex::new(Instant::now()));
        Ok(Progress { bar, unit, logged })
    }

    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        self.log_if_due();
    }

    pub fn set_position(&self, pos: u64) {
        self.bar.set_position(pos);
        self.log_if_due();
    }

    pub fn set_length(&self, len: u64) {
        self.bar.set_length(len);
    }

    pub fn set_message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    pub fn reset(&self) {
        self.bar.reset();
    }

    /// A line of the command's own output (stdout), printed at once,
    /// above the bar on a terminal.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
    }

    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }

    /// After the job succeeded: a log gets a last line with the counts
    /// and the time spent (a failed job's error is its last line).
    pub fn log_end(&self) {
        if self.logged.is_some() {
            eprintln!("{}", self.line(false));
        }
    }

    fn log_if_due(&self) {
        let Some(logged) = &self.logged else { return };
        // A poisoned lock only means a panic elsewhere; the time is fine.
        let mut last = logged.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= LOG_EVERY {
            *last = Instant::now();
            eprintln!("{}", self.line(true));
        }
    }

    fn line(&self, running: bool) -> String {
        log_line(
            &self.bar.message(),
            self.bar.position(),
            self.bar.length(),
            self.unit,
            self.bar.elapsed(),
            running.then(|| self.bar.eta()),
        )
    }
}

/// `"pos/len unit[, msg], elapsed spent[, eta left]"`, the bar's words.
fn log_line(
    msg: &str,
    pos: u64,
    len: Option<u64>,
    unit: &str,
    elapsed: Duration,
    eta: Option<Duration>,
) -> String {
    let mut s = pos.to_string();
    if let Some(len) = len {
        s.push_str(&format!("/{len}"));
    }
    s.push_str(&format!(" {unit}, "));
    if !msg.is_empty() {
        s.push_str(&format!("{msg}, "));
    }
    s.push_str(&format!("{} spent", HumanDuration(elapsed)));
    if let Some(eta) = eta {
        s.push_str(&format!(", {} left", HumanDuration(eta)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_line_says_how_far_and_how_long() {
        assert_eq!(
            log_line(
                "",
                300,
                Some(1000),
                "games",
                Duration::from_secs(120),
                Some(Duration::from_secs(280))
            ),
            "300/1000 games, 2 minutes spent, 5 minutes left"
        );
        assert_eq!(
            log_line(
                "K+Q v K",
                7,
                None,
                "placements",
                Duration::from_secs(3),
                None
            ),
            "7 placements, K+Q v K, 3 seconds spent"
        );
    }
}
