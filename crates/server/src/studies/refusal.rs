//! Why a study is refused: its content (a move that breaks a rule, a bad
//! position, a size over its bound), who asks, or its version.

use legion_rules::LfenError;
use legion_rules::game::Outcome;
use legion_rules::notation::MoveParseError;

use crate::store::StoreError;

/// Where in a study: chapter and node, both counted from 1 for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub chapter: usize,
    pub node: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum StudyRefusal {
    #[error("no study '{0}'")]
    NoStudy(String),
    #[error("only the study's owner may change it")]
    NotOwner,
    /// Saved meanwhile (another tab, another device): `current` is the
    /// version the save has to name.
    #[error("the study changed meanwhile (version {current})")]
    Stale { current: i64 },
    #[error("a study needs a title")]
    NoTitle,
    #[error("a title has at most {max} characters")]
    TitleTooLong { max: usize },
    #[error("a study has at least one chapter")]
    NoChapters,
    #[error("a study has at most {max} chapters")]
    TooManyChapters { max: usize },
    #[error("chapter {chapter}: a name has 1 to {max} characters")]
    BadName { chapter: usize, max: usize },
    #[error("chapter {chapter}: at most {max} positions")]
    TooManyNodes { chapter: usize, max: usize },
    #[error("a study has at most {max} positions in all its chapters")]
    TooManyStudyNodes { max: usize },
    #[error("chapter {}, node {}: a comment has at most {max} characters", .at.chapter, .at.node)]
    CommentTooLong { at: At, max: usize },
    #[error("chapter {}, node {}: at most {max} arrows and circles", .at.chapter, .at.node)]
    TooManyShapes { at: At, max: usize },
    #[error("chapter {chapter}: rules must be 'default' or 'mate-ends-game'")]
    BadRules { chapter: usize },
    #[error("chapter {chapter}: orientation must be 'white' or 'black'")]
    BadOrientation { chapter: usize },
    #[error("chapter {chapter}: a position is at most {max} bytes")]
    StartTooLong { chapter: usize, max: usize },
    #[error("chapter {chapter}: {error}")]
    BadStart { chapter: usize, error: LfenError },
    /// Node 1 is the start (no parent, no move); every other node names
    /// an earlier one and a move.
    #[error("chapter {}, node {}: a position follows an earlier one by a move", .at.chapter, .at.node)]
    BadTree { at: At },
    #[error("chapter {}, node {}: '{text}': {error}", .at.chapter, .at.node)]
    BadMove {
        at: At,
        text: String,
        error: MoveParseError,
    },
    #[error("chapter {}, node {}: '{text}' is played after the end of the game ({})", .at.chapter, .at.node, .outcome.result())]
    AfterEnd {
        at: At,
        text: String,
        outcome: Outcome,
    },
    #[error("chapter {}, node {}: '{text}' is there twice", .at.chapter, .at.node)]
    SameMoveTwice { at: At, text: String },
    #[error("chapter {}, node {}: '{square}' is not a square", .at.chapter, .at.node)]
    BadSquare { at: At, square: String },
    #[error("chapter {}, node {}: colours are green, red, blue and orange", .at.chapter, .at.node)]
    BadColor { at: At },
    /// An account's studies of the last hour.
    #[error("at most {max} new studies an hour")]
    TooManyStudies { max: u32 },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("stored study '{id}' cannot be read: {why}")]
    Corrupt { id: String, why: String },
}
