//! The practice lessons of /learn (`assets/lessons.json`): every task's
//! solution is replayed with the rules crate, so no lesson can be
//! impossible. Each move must be legal where it is played, the goal must
//! be reached by the player's last move and not before, and the par must
//! be the number of the player's moves in the solution. The goals are
//! judged here as the page judges them (learn.js `reached`), from the
//! placement alone: the rules decide everything else.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use legion_rules::notation::canonical;
use legion_rules::{Color, Game, Occupant, Position, Role, Rules, Square};
use serde_json::Value;

const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
const RULES_MD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/RULES.md");

fn read_json(name: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(ASSETS).join(name)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A lesson: its tasks and the rules it teaches.
struct Lesson {
    id: String,
    rules: Vec<String>,
    tasks: Vec<Task>,
}

/// A task as the page reads it.
struct Task {
    id: String,
    rule: String,
    lfen: String,
    goal: Value,
    par: usize,
    limit: usize,
    solution: Vec<String>,
}

fn lessons() -> Vec<Lesson> {
    let doc = read_json("lessons.json");
    let lessons = doc["lessons"].as_array().expect("a list of lessons");
    assert!(!lessons.is_empty());
    lessons
        .iter()
        .map(|l| {
            let id = l["id"].as_str().expect("a lesson id").to_string();
            let rules = l["rules"]
                .as_array()
                .expect("a lesson's rules")
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect();
            let list = l["tasks"]
                .as_array()
                .expect("a lesson's tasks")
                .iter()
                .map(|t| {
                    let s = |k: &str| {
                        t[k].as_str()
                            .unwrap_or_else(|| panic!("task field {k}: {t}"))
                            .to_string()
                    };
                    let par = t["par"].as_u64().expect("a par") as usize;
                    Task {
                        id: s("id"),
                        rule: s("rule"),
                        lfen: s("lfen"),
                        goal: t["goal"].clone(),
                        par,
                        // learn.js: par + 3 when the task sets none.
                        limit: t["limit"].as_u64().map_or(par + 3, |n| n as usize),
                        solution: t["solution"]
                            .as_array()
                            .expect("a solution")
                            .iter()
                            .map(|m| m.as_str().unwrap().to_string())
                            .collect(),
                    }
                })
                .collect();
            Lesson {
                id,
                rules,
                tasks: list,
            }
        })
        .collect()
}

fn square(goal: &Value) -> Square {
    goal["square"]
        .as_str()
        .expect("the goal's square")
        .parse()
        .expect("a square")
}

fn role_of(letter: &str) -> Role {
    match letter {
        "K" => Role::King,
        "Q" => Role::Queen,
        "R" => Role::Rook,
        "B" => Role::Bishop,
        "N" => Role::Knight,
        "M" => Role::Man,
        "T" => Role::Tama,
        other => panic!("no piece letter '{other}'"),
    }
}

fn occupants(pos: &Position) -> Vec<Occupant> {
    pos.board()
        .occupied()
        .into_iter()
        .filter_map(|sq| pos.board().occupant(sq))
        .collect()
}

/// Squares whose top piece is `side`'s: its pieces and the constructs it
/// holds (a man taken prisoner leaves its side's count).
fn owned(pos: &Position, side: Color) -> usize {
    occupants(pos)
        .iter()
        .filter(|o| o.piece.color == side)
        .count()
}

fn is_legion(role: Role) -> bool {
    matches!(role, Role::Man | Role::Tama)
}

/// Whether `goal` is met in `now`, the player being `player` and the task
/// having started from `start`: the same test as learn.js `reached`.
fn reached(goal: &Value, start: &Position, now: &Position, player: Color) -> bool {
    let count = goal["count"].as_u64().unwrap_or(1) as usize;
    let at = |sq: Square| now.board().occupant(sq);
    match goal["type"].as_str().expect("a goal type") {
        // A piece of the player's, standing alone, on the square.
        "reach" => {
            let role = role_of(goal["piece"].as_str().expect("the goal's piece"));
            at(square(goal)).is_some_and(|o| {
                o.piece.color == player && o.piece.role == role && o.prisoner.is_none()
            })
        }
        // Crowning (2.5): the player has `count` Tamas of its own.
        "tama" => {
            occupants(now)
                .iter()
                .filter(|o| o.piece.color == player && o.piece.role == Role::Tama)
                .count()
                >= count
        }
        // The opponent has `count` fewer pieces than at the start (4.1:
        // removed, taken prisoner, or its Captor removed).
        "capture" => owned(start, !player).saturating_sub(owned(now, !player)) >= count,
        // The player holds `count` prisoners (Захват, 4.1).
        "prisoner" => {
            occupants(now)
                .iter()
                .filter(|o| o.piece.color == player && o.prisoner.is_some())
                .count()
                >= count
        }
        // Liberation (4.1): the player's Legion piece stands free where
        // the opponent's construct held it.
        "free" => at(square(goal)).is_some_and(|o| {
            o.piece.color == player && is_legion(o.piece.role) && o.prisoner.is_none()
        }),
        // Absorption (4.1): the player's chess piece stands where the
        // opponent's construct stood.
        "absorb" => {
            at(square(goal)).is_some_and(|o| o.piece.color == player && !is_legion(o.piece.role))
        }
        // Out of check (3.2): a legal move always is (3.3).
        "escape" => !now.is_king_attacked(player),
        // Mate ended Phase 1: the opponent's King is gone (5.1).
        "mate" => now.board().king(!player).is_none(),
        // The game is won (5.2).
        "win" => Game::new(*now).outcome().and_then(|o| o.winner()) == Some(player),
        other => panic!("no goal type '{other}'"),
    }
}

/// What a goal needs of the start position, so that reaching it means
/// doing what the task teaches.
fn check_start(t: &Task, start: &Position, player: Color) {
    let goal = &t.goal;
    let at = |sq: Square| start.board().occupant(sq);
    match goal["type"].as_str().unwrap() {
        "escape" => assert!(start.is_check(), "{}: the player starts in check", t.id),
        "mate" => assert!(
            start.board().king(!player).is_some(),
            "{}: the opponent has a King to mate",
            t.id
        ),
        "free" => assert!(
            at(square(goal)).is_some_and(|o| o.piece.color == !player && o.prisoner.is_some()),
            "{}: the opponent's construct holds the player's piece on the goal's square",
            t.id
        ),
        "absorb" => assert!(
            at(square(goal)).is_some_and(|o| o.piece.color == !player && o.prisoner.is_some()),
            "{}: an opponent's construct stands on the goal's square",
            t.id
        ),
        _ => {}
    }
}

#[test]
fn every_lesson_can_be_finished_by_its_solution() {
    let mut ids = BTreeSet::new();
    let mut n = 0;
    for lesson in lessons() {
        for t in lesson.tasks {
            n += 1;
            assert!(ids.insert(t.id.clone()), "two tasks named {}", t.id);
            let start = Position::from_lfen(&t.lfen, Rules::DEFAULT)
                .unwrap_or_else(|e| panic!("{}: {e}", t.id));
            let player = start.turn();
            check_start(&t, &start, player);
            assert!(
                !reached(&t.goal, &start, &start, player),
                "{}: the goal is met before any move",
                t.id
            );
            assert!(t.par >= 1 && t.limit >= t.par, "{}: par and limit", t.id);
            assert_eq!(
                t.solution.len() % 2,
                1,
                "{}: the solution ends with the player's move",
                t.id
            );
            let mut pos = start;
            for (i, text) in t.solution.iter().enumerate() {
                let legal = pos.legal_moves();
                let m = legal
                    .into_iter()
                    .find(|&m| canonical(&pos, m) == *text)
                    .unwrap_or_else(|| {
                        let all: Vec<String> = pos
                            .legal_moves()
                            .into_iter()
                            .map(|m| canonical(&pos, m))
                            .collect();
                        panic!(
                            "{}: move {} '{text}' is not legal; legal: {all:?}",
                            t.id,
                            i + 1
                        )
                    });
                pos = pos.after(m);
                let by_player = i % 2 == 0;
                let last = i + 1 == t.solution.len();
                if by_player {
                    assert_eq!(
                        reached(&t.goal, &start, &pos, player),
                        last,
                        "{}: after the player's move {} ('{text}') the goal is {}",
                        t.id,
                        i / 2 + 1,
                        if last {
                            "not reached"
                        } else {
                            "already reached"
                        }
                    );
                }
            }
            assert_eq!(
                t.solution.len().div_ceil(2),
                t.par,
                "{}: the par is the solution's number of player moves",
                t.id
            );
        }
    }
    assert!(n >= 10, "only {n} tasks");
}

#[test]
fn every_lesson_and_task_has_its_words_and_a_real_rule() {
    let rules = std::fs::read_to_string(RULES_MD).unwrap();
    let numbered: BTreeSet<&str> = rules
        .lines()
        .filter_map(|l| l.split_once(" **").map(|(n, _)| n))
        .filter(|n| n.split('.').all(|p| p.parse::<u32>().is_ok()) && n.contains('.'))
        .collect();
    for lang in ["en", "ru"] {
        let dict: BTreeMap<String, String> =
            serde_json::from_value(read_json(&format!("{lang}.json"))).unwrap();
        for lesson in lessons() {
            for k in ["title", "about"] {
                let key = format!("learn.lesson.{}.{k}", lesson.id);
                assert!(dict.contains_key(&key), "{lang}.json lacks {key}");
            }
            for r in &lesson.rules {
                assert!(numbered.contains(r.as_str()), "{}: no rule {r}", lesson.id);
            }
            for t in lesson.tasks {
                assert!(
                    numbered.contains(t.rule.as_str()),
                    "{}: no rule {}",
                    t.id,
                    t.rule
                );
                for k in ["title", "goal", "done"] {
                    let key = format!("learn.task.{}.{k}", t.id);
                    assert!(dict.contains_key(&key), "{lang}.json lacks {key}");
                }
            }
        }
    }
}

#[test]
fn the_goals_judge_by_hand_made_positions() {
    // By hand, from 4.1: a White Rook that took the man on a5 holds it
    // prisoner; Black has one piece fewer on the board (its King stays).
    let p = |l: &str| Position::from_lfen(l, Rules::DEFAULT).unwrap();
    let start = p("k7/8/8/m7/8/8/8/R6K w - 0 1");
    let after = p("k7/8/8/[Rm]7/8/8/8/7K b - 0 1");
    let goal = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    let w = Color::White;
    assert!(reached(&goal(r#"{"type":"prisoner"}"#), &start, &after, w));
    assert!(reached(
        &goal(r#"{"type":"capture","count":1}"#),
        &start,
        &after,
        w
    ));
    assert!(!reached(
        &goal(r#"{"type":"capture","count":2}"#),
        &start,
        &after,
        w
    ));
    // A construct on the square is no free man there (Liberation needs the
    // Captor gone), and a man is no Rook (Absorption needs a chess piece).
    let held = p("k7/8/8/8/3[nM]4/8/8/7K w - 0 1");
    let freed = p("k7/8/8/4M3/3M4/8/8/7K b - 0 1");
    let free_d4 = goal(r#"{"type":"free","square":"d4"}"#);
    assert!(!reached(&free_d4, &held, &held, w));
    assert!(reached(&free_d4, &held, &freed, w));
    assert!(!reached(
        &goal(r#"{"type":"absorb","square":"d4"}"#),
        &held,
        &freed,
        w
    ));
    // No Black King: Phase 1 is over (5.1); Black with no piece has lost (5.2).
    let gone = p("2Q5/7R/8/8/5[Qm]2/8/8/7K b - 0 3");
    assert!(reached(&goal(r#"{"type":"mate"}"#), &gone, &gone, w));
    assert!(reached(&goal(r#"{"type":"win"}"#), &gone, &gone, w));
}
