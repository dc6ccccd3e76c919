//! A study as a client sends it and the database keeps it (the chapters
//! as one JSON text). A move tree is a flat list of nodes, each naming
//! its parent by an earlier index: no nesting, so a long line is no deep
//! JSON, and the order of a node's children is the order of the list
//! (the first child is the main continuation).

use serde::{Deserialize, Serialize};

/// The longest title, in characters.
pub const MAX_TITLE: usize = 100;
/// The longest chapter name, in characters.
pub const MAX_NAME: usize = 100;
/// Chapters in one study.
pub const MAX_CHAPTERS: usize = 64;
/// Nodes (positions, the start included) in one chapter.
pub const MAX_NODES: usize = 1000;
/// Nodes in all the chapters of one study together.
pub const MAX_STUDY_NODES: usize = 5000;
/// The longest comment of a move, in characters.
pub const MAX_COMMENT: usize = 2000;
/// Arrows and circles on one position.
pub const MAX_SHAPES: usize = 64;
/// The largest request body of the studies' routes, in bytes.
pub const MAX_STUDY_BYTES: usize = 512 * 1024;

/// The colours of arrows and circles (as the board draws them).
pub const COLORS: [&str; 4] = ["green", "red", "blue", "orange"];

/// A study as sent to be created or saved: the words are checked by
/// `check`, not by their types, so that each refusal can say what and
/// where.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draft {
    pub title: String,
    pub chapters: Vec<Chapter>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    pub name: String,
    /// The start position (LFEN, 6.2).
    pub start: String,
    /// `default` or `mate-ends-game` (5.4).
    #[serde(default = "default_rules")]
    pub rules: String,
    /// The side at the bottom of the board: `white` or `black`.
    #[serde(default = "default_orientation")]
    pub orientation: String,
    /// The tree: node 0 is the start position (no parent, no move); every
    /// other node names an earlier node as its parent.
    pub nodes: Vec<Node>,
}

fn default_rules() -> String {
    "default".into()
}

fn default_orientation() -> String {
    "white".into()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    /// The move from the parent's position, canonical (6.3) once checked.
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Shape>,
}

/// An arrow from `from` to `to`, or a circle on `from` (no `to`, or the
/// same square).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub color: String,
}
