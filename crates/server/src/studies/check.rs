//! Checking a study before it is saved: every size within its bound, every
//! start position read (6.2), every move replayed from its parent's
//! position with the rules crate and written canonically (6.3), no move
//! after the end of the game (5.2–5.4), and every shape on squares in one
//! of the board's colours. What passes is the study as it is kept.

use legion_rules::game::{Outcome, WinReason};
use legion_rules::notation::{canonical, parse_canonical};
use legion_rules::{Game, Position, Square};

use super::model::*;
use super::refusal::{At, StudyRefusal};
use crate::games::live::rules_of;

/// The longest start LFEN, as elsewhere in the API.
pub const MAX_LFEN: usize = 200;

/// A study that passed `check`: its title trimmed, its moves canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub title: String,
    pub chapters: Vec<Chapter>,
}

/// The rule an end of the game comes from.
pub fn end_rule(o: Outcome) -> &'static str {
    match o {
        Outcome::Win {
            reason: WinReason::Mate,
            ..
        } => "5.4",
        Outcome::Win { .. } => "5.2",
        Outcome::Draw { .. } => "5.3",
    }
}

pub fn check(draft: Draft) -> Result<Checked, StudyRefusal> {
    let title = draft.title.trim().to_string();
    if title.is_empty() {
        return Err(StudyRefusal::NoTitle);
    }
    if title.chars().count() > MAX_TITLE {
        return Err(StudyRefusal::TitleTooLong { max: MAX_TITLE });
    }
    if draft.chapters.is_empty() {
        return Err(StudyRefusal::NoChapters);
    }
    if draft.chapters.len() > MAX_CHAPTERS {
        return Err(StudyRefusal::TooManyChapters { max: MAX_CHAPTERS });
    }
    let total: usize = draft.chapters.iter().map(|c| c.nodes.len()).sum();
    if total > MAX_STUDY_NODES {
        return Err(StudyRefusal::TooManyStudyNodes {
            max: MAX_STUDY_NODES,
        });
    }
    let chapters = draft
        .chapters
        .into_iter()
        .enumerate()
        .map(|(i, c)| chapter(i + 1, c))
        .collect::<Result<_, _>>()?;
    Ok(Checked { title, chapters })
}

fn chapter(number: usize, mut c: Chapter) -> Result<Chapter, StudyRefusal> {
    c.name = c.name.trim().to_string();
    if c.name.is_empty() || c.name.chars().count() > MAX_NAME {
        return Err(StudyRefusal::BadName {
            chapter: number,
            max: MAX_NAME,
        });
    }
    if c.nodes.len() > MAX_NODES {
        return Err(StudyRefusal::TooManyNodes {
            chapter: number,
            max: MAX_NODES,
        });
    }
    let rules = rules_of(&c.rules).ok_or(StudyRefusal::BadRules { chapter: number })?;
    if c.orientation != "white" && c.orientation != "black" {
        return Err(StudyRefusal::BadOrientation { chapter: number });
    }
    if c.start.len() > MAX_LFEN {
        return Err(StudyRefusal::StartTooLong {
            chapter: number,
            max: MAX_LFEN,
        });
    }
    let start =
        Position::from_lfen(c.start.trim(), rules).map_err(|error| StudyRefusal::BadStart {
            chapter: number,
            error,
        })?;
    // The start as the rules crate writes it: one text for one position.
    c.start = start.to_lfen();
    if c.nodes.is_empty() {
        c.nodes.push(Node {
            parent: None,
            mv: None,
            comment: String::new(),
            shapes: Vec::new(),
        });
    }
    let mut positions: Vec<Position> = Vec::with_capacity(c.nodes.len());
    // Whether each position ends the game (looked at once a move follows it).
    let mut ended: Vec<Option<Option<Outcome>>> = vec![None; c.nodes.len()];
    for (i, node) in c.nodes.iter_mut().enumerate() {
        let at = At {
            chapter: number,
            node: i + 1,
        };
        shapes_and_comment(at, node)?;
        let pos = match (i, node.parent, node.mv.take()) {
            (0, None, None) => start,
            (0, _, _) => return Err(StudyRefusal::BadTree { at }),
            (_, Some(p), Some(text)) if p < i => {
                let before = positions[p];
                let over = *ended[p].get_or_insert_with(|| Game::new(before).outcome());
                if let Some(outcome) = over {
                    return Err(StudyRefusal::AfterEnd { at, text, outcome });
                }
                let m = parse_canonical(&before, &text).map_err(|error| StudyRefusal::BadMove {
                    at,
                    text: text.clone(),
                    error,
                })?;
                let written = canonical(&before, m);
                let mut after = before;
                after.play(m);
                node.mv = Some(written);
                after
            }
            _ => return Err(StudyRefusal::BadTree { at }),
        };
        positions.push(pos);
    }
    // One child per move: the same move twice from one position would be
    // one line drawn twice.
    let mut seen = std::collections::HashSet::new();
    for (i, n) in c.nodes.iter().enumerate() {
        if let (Some(p), Some(m)) = (n.parent, &n.mv)
            && !seen.insert((p, m.as_str()))
        {
            return Err(StudyRefusal::SameMoveTwice {
                at: At {
                    chapter: number,
                    node: i + 1,
                },
                text: m.clone(),
            });
        }
    }
    Ok(c)
}

fn shapes_and_comment(at: At, node: &mut Node) -> Result<(), StudyRefusal> {
    if node.comment.chars().count() > MAX_COMMENT {
        return Err(StudyRefusal::CommentTooLong {
            at,
            max: MAX_COMMENT,
        });
    }
    if node.shapes.len() > MAX_SHAPES {
        return Err(StudyRefusal::TooManyShapes {
            at,
            max: MAX_SHAPES,
        });
    }
    let square = |s: &str| -> Result<String, StudyRefusal> {
        s.parse::<Square>()
            .map(|q| q.to_string())
            .map_err(|_| StudyRefusal::BadSquare {
                at,
                square: s.chars().take(8).collect(),
            })
    };
    for shape in &mut node.shapes {
        shape.from = square(&shape.from)?;
        shape.to = match shape.to.as_deref() {
            None => None,
            Some(to) => {
                let to = square(to)?;
                // A circle is a shape without `to`.
                (to != shape.from).then_some(to)
            }
        };
        if !COLORS.contains(&shape.color.as_str()) {
            return Err(StudyRefusal::BadColor { at });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(nodes: serde_json::Value) -> Draft {
        serde_json::from_value(serde_json::json!({
            "title": " Openings ",
            "chapters": [{"name": "One", "start": legion_rules::INITIAL_LFEN, "nodes": nodes}],
        }))
        .unwrap()
    }

    #[test]
    fn moves_are_replayed_and_written_canonically() {
        // From the start White has the Legion move c3d4 (Part VII); Black
        // answers f6e5; 6.3 lets '-' and ':' stand between the squares.
        let c = check(draft(serde_json::json!([
            {},
            {"parent": 0, "move": "c3-d4", "comment": "centre"},
            {"parent": 1, "move": "f6:e5"},
            {"parent": 0, "move": "g1f3", "shapes": [{"from": "g1", "to": "f3", "color": "green"}, {"from": "e4", "to": "e4", "color": "red"}]},
        ])))
        .unwrap();
        assert_eq!(c.title, "Openings");
        let nodes = &c.chapters[0].nodes;
        assert_eq!(nodes[1].mv.as_deref(), Some("c3d4"));
        assert_eq!(nodes[2].mv.as_deref(), Some("f6e5"));
        // The same square twice is a circle.
        assert_eq!(nodes[3].shapes[1].to, None);
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_rule() {
        // 2.1: from the start the Rook on a1 cannot slide to a4 past the
        // man on a3 (Part VII: a1a2 is its only move).
        let e = check(draft(
            serde_json::json!([{}, {"parent": 0, "move": "a1a4"}]),
        ))
        .unwrap_err();
        match e {
            StudyRefusal::BadMove { at, error, .. } => {
                assert_eq!((at.chapter, at.node), (1, 2));
                assert_eq!(error.rule(), "2.1");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn trees_name_earlier_parents() {
        for nodes in [
            serde_json::json!([{"parent": 0, "move": "c3d4"}]),
            serde_json::json!([{}, {"parent": 1, "move": "c3d4"}]),
            serde_json::json!([{}, {"move": "c3d4"}]),
            serde_json::json!([{}, {"parent": 0}]),
        ] {
            assert!(
                matches!(
                    check(draft(nodes.clone())),
                    Err(StudyRefusal::BadTree { .. })
                ),
                "{nodes}"
            );
        }
        let twice =
            serde_json::json!([{}, {"parent": 0, "move": "c3d4"}, {"parent": 0, "move": "c3-d4"}]);
        assert!(matches!(
            check(draft(twice)),
            Err(StudyRefusal::SameMoveTwice { .. })
        ));
    }
}
