//! The protocol's options (docs/PROTOCOL.md), each declared once: its
//! name, its type with its default and bounds or choices, and how a value
//! is applied. The `uci` listing and `setoption` both read this table, so
//! an option cannot be listed with bounds that `setoption` does not keep.
//!
//! One case rule for all: option names and the words of `check` and
//! `combo` values are read in any case (`Ponder`, `ponder`, `TRUE`); a
//! `string` value (a path) is taken as written.

use legion_rules::Rules;

use super::ProtocolError;
use crate::engine::{EVALS, EvalError, Options};
use crate::nnue::{self, NetError, Network};

/// What `setoption` changes: the engine's options and the session's own.
#[derive(Clone)]
pub(super) struct Settings {
    pub engine: Options,
    /// `bestmove` names the move expected in reply.
    pub ponder: bool,
    /// Lines a search reports.
    pub multipv: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engine: Options::default(),
            ponder: false,
            multipv: 1,
        }
    }
}

/// An option's type, with its default, what values it takes and how a
/// value read for it is applied.
pub(super) enum Kind {
    /// A whole number from `min` to `max`.
    Spin {
        default: usize,
        min: usize,
        max: usize,
        apply: fn(&mut Settings, usize),
    },
    /// `true` or `false`.
    Check {
        default: bool,
        apply: fn(&mut Settings, bool),
    },
    /// One of `vars` (given to `apply` as the table spells it).
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        apply: fn(&mut Settings, &'static str) -> Result<(), ProtocolError>,
    },
    /// Any text, taken as written; none by default.
    Text {
        apply: fn(&mut Settings, &str) -> Result<(), ProtocolError>,
    },
}

/// One option of the protocol.
pub(super) struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
}

const CHECK: &[&str] = &["true", "false"];

/// Every option, in the order `uci` lists them.
pub(super) const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 64,
            apply: |s, n| s.engine.threads = n,
        },
    },
    UciOption {
        name: "Hash",
        kind: Kind::Spin {
            default: 64,
            min: 1,
            max: 4096,
            apply: |s, n| s.engine.hash_mb = n,
        },
    },
    UciOption {
        name: "Level",
        kind: Kind::Spin {
            default: 10,
            min: 1,
            max: 10,
            // At most 10, the bound kept before `apply`: no truncation.
            apply: |s, n| s.engine.level = n as u8,
        },
    },
    UciOption {
        name: "MateEndsGame",
        kind: Kind::Check {
            default: false,
            apply: |s, on| {
                s.engine.rules = if on {
                    Rules::MATE_ENDS_GAME
                } else {
                    Rules::DEFAULT
                }
            },
        },
    },
    UciOption {
        name: "Eval",
        kind: Kind::Combo {
            default: "nnue",
            vars: &EVALS,
            apply: |s, name| set_eval(&mut s.engine, name, nnue::embedded),
        },
    },
    UciOption {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 16,
            apply: |s, n| s.multipv = n,
        },
    },
    UciOption {
        name: "Ponder",
        kind: Kind::Check {
            default: false,
            apply: |s, on| s.ponder = on,
        },
    },
    UciOption {
        name: "EvalFile",
        kind: Kind::Text {
            apply: |s, path| {
                s.engine
                    .set_eval_file(path)
                    .map_err(ProtocolError::EvalFile)
            },
        },
    },
    UciOption {
        name: "EndgamePath",
        kind: Kind::Text {
            apply: |s, path| {
                s.engine
                    .set_endgame_path(path)
                    .map_err(ProtocolError::EndgamePath)
            },
        },
    },
];

/// `Eval`: the evaluation by name, the built-in network read by
/// `embedded`.
pub(super) fn set_eval(
    o: &mut Options,
    name: &str,
    embedded: impl FnOnce() -> Result<std::sync::Arc<Network>, NetError>,
) -> Result<(), ProtocolError> {
    o.set_eval_with(name, embedded).map_err(|e| match e {
        EvalError::BuiltInNetwork(e) => ProtocolError::BuiltInNetwork(e),
        // Only names of `EVALS` reach here, and each is known.
        EvalError::Unknown(value) => ProtocolError::BadChoice {
            option: "Eval",
            choices: for_people(&EVALS),
            value,
        },
    })
}

/// "a, b or c".
fn for_people(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

impl UciOption {
    /// The option named `name`, in any case.
    pub fn find(name: &str) -> Option<&'static UciOption> {
        OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Its `option name ...` line of the `uci` answer.
    pub fn line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin {
                default, min, max, ..
            } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default, .. } => {
                format!("option name {name} type check default {default}")
            }
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text { .. } => format!("option name {name} type string default <empty>"),
        }
    }

    /// Reads `value` for the option's kind and applies it to `settings`;
    /// on an error `settings` is unchanged.
    pub fn set(&self, settings: &mut Settings, value: &str) -> Result<(), ProtocolError> {
        let option = self.name;
        let choice = |vars: &'static [&'static str]| {
            vars.iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .copied()
                .ok_or_else(|| ProtocolError::BadChoice {
                    option,
                    choices: for_people(vars),
                    value: value.to_string(),
                })
        };
        match self.kind {
            Kind::Spin {
                min, max, apply, ..
            } => {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| ProtocolError::BadNumber {
                        option,
                        min,
                        max,
                        value: value.to_string(),
                    })?;
                apply(settings, n);
                Ok(())
            }
            Kind::Check { apply, .. } => {
                apply(settings, choice(CHECK)? == "true");
                Ok(())
            }
            Kind::Combo { vars, apply, .. } => apply(settings, choice(vars)?),
            Kind::Text { apply } => apply(settings, value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `uci` answer's option lines, as docs/PROTOCOL.md has listed
    /// them since the options were added.
    const LISTED: [&str; 9] = [
        "option name Threads type spin default 1 min 1 max 64",
        "option name Hash type spin default 64 min 1 max 4096",
        "option name Level type spin default 10 min 1 max 10",
        "option name MateEndsGame type check default false",
        "option name Eval type combo default nnue var nnue var linear var tuned var handset var material",
        "option name MultiPV type spin default 1 min 1 max 16",
        "option name Ponder type check default false",
        "option name EvalFile type string default <empty>",
        "option name EndgamePath type string default <empty>",
    ];

    #[test]
    fn the_listing_is_the_protocol_s() {
        let lines: Vec<String> = OPTIONS.iter().map(UciOption::line).collect();
        assert_eq!(lines, LISTED);
    }

    #[test]
    fn every_spin_keeps_its_bounds() {
        for o in OPTIONS {
            let Kind::Spin {
                default, min, max, ..
            } = o.kind
            else {
                continue;
            };
            assert!((min..=max).contains(&default), "{}", o.name);
            for n in [min, default, max] {
                let mut s = Settings::default();
                o.set(&mut s, &n.to_string()).unwrap();
            }
            for bad in [(min - 1).to_string(), (max + 1).to_string(), "x".into()] {
                let mut s = Settings::default();
                assert_eq!(
                    o.set(&mut s, &bad),
                    Err(ProtocolError::BadNumber {
                        option: o.name,
                        min,
                        max,
                        value: bad.clone()
                    }),
                    "{} {bad}",
                    o.name
                );
            }
        }
    }

    #[test]
    fn each_option_sets_what_it_names() {
        let mut s = Settings::default();
        let set = |s: &mut Settings, name: &str, value: &str| {
            UciOption::find(name).unwrap().set(s, value).unwrap()
        };
        set(&mut s, "threads", "3");
        set(&mut s, "HASH", "2");
        set(&mut s, "Level", "4");
        set(&mut s, "mateendsgame", "TRUE");
        set(&mut s, "multipv", "5");
        set(&mut s, "ponder", "True");
        set(&mut s, "eval", "Handset");
        assert_eq!(
            (s.engine.threads, s.engine.hash_mb, s.engine.level),
            (3, 2, 4)
        );
        assert_eq!(s.engine.rules, Rules::MATE_ENDS_GAME);
        assert_eq!((s.multipv, s.ponder), (5, true));
        assert_eq!(s.engine.eval_name, "handset");
        assert!(s.engine.net.is_none());
        set(&mut s, "MateEndsGame", "false");
        assert_eq!(s.engine.rules, Rules::DEFAULT);
    }

    #[test]
    fn every_check_and_combo_reads_its_words_in_any_case() {
        for o in OPTIONS {
            let words: &[&str] = match o.kind {
                Kind::Check { .. } => CHECK,
                Kind::Combo { vars, .. } => vars,
                _ => continue,
            };
            for w in words {
                for written in [w.to_string(), w.to_ascii_uppercase()] {
                    let mut s = Settings::default();
                    assert_eq!(o.set(&mut s, &written), Ok(()), "{} {written}", o.name);
                }
            }
            let mut s = Settings::default();
            let e = o.set(&mut s, "maybe").unwrap_err();
            assert!(
                matches!(&e, ProtocolError::BadChoice { option, value, .. }
                    if *option == o.name && value == "maybe"),
                "{e:?}"
            );
        }
    }

    #[test]
    fn choices_are_listed_for_people() {
        assert_eq!(for_people(CHECK), "true or false");
        assert_eq!(for_people(&EVALS), crate::engine::EVAL_CHOICES);
    }

    #[test]
    fn a_built_in_network_that_does_not_load_is_said_so() {
        let mut o = Options::default();
        let e = set_eval(&mut o, "nnue", || Err(NetError::Checksum)).unwrap_err();
        assert_eq!(e, ProtocolError::BuiltInNetwork(NetError::Checksum));
        assert_eq!(
            e.to_string(),
            "option Eval: the network built into this binary does not load: \
             the network file is damaged (checksum differs)"
        );
    }
}
