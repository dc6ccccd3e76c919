//! A position's value for the side to move, and how tables store it.

/// The value of a position for the side to move, with the distance in
/// plies to the end (a position without a legal move for the loser, 5.2),
/// repetition and the 50-move rule ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies at most, against any defence.
    Win(u16),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies at least, against best play.
    Loss(u16),
}

impl Value {
    /// The value for the other side, one ply earlier: what a move into a
    /// position of this value is worth to the side that made it.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d.saturating_add(1)),
            Value::Loss(d) => Value::Win(d.saturating_add(1)),
            Value::Draw => Value::Draw,
        }
    }
}

/// A position's [`Value`] as the tables keep it, in 16 bits (one per
/// placement): 0 not yet known (or no position at that index), 1 a
/// draw, `2 + 2d` a win in `d` plies, `3 + 2d` a loss in `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct Stored(pub u16);

impl Stored {
    /// Not yet known (while solving), or no position (a bad index).
    pub const UNKNOWN: Stored = Stored(0);
    /// A draw.
    pub const DRAW: Stored = Stored(1);

    /// The stored form of a value (a distance above 32,766 plies is
    /// kept as 32,766: no ending comes near it).
    pub fn of(v: Value) -> Stored {
        Stored(match v {
            Value::Draw => 1,
            Value::Win(d) => 2 + 2 * d.min(32_766),
            Value::Loss(d) => 3 + 2 * d.min(32_766),
        })
    }

    /// The value, or `None` for no position.
    pub fn value(self) -> Option<Value> {
        match self.0 {
            0 => None,
            1 => Some(Value::Draw),
            c if c.is_multiple_of(2) => Some(Value::Win((c - 2) / 2)),
            c => Some(Value::Loss((c - 3) / 2)),
        }
    }

    /// A win for the side to move.
    pub fn is_win(self) -> bool {
        matches!(self.value(), Some(Value::Win(_)))
    }

    /// A loss for the side to move.
    pub fn is_loss(self) -> bool {
        matches!(self.value(), Some(Value::Loss(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_values_round_trip() {
        for v in [
            Value::Draw,
            Value::Win(0),
            Value::Win(79),
            Value::Loss(0),
            Value::Loss(80),
        ] {
            assert_eq!(Stored::of(v).value(), Some(v));
        }
        assert_eq!(Stored::UNKNOWN.value(), None);
        assert_eq!(Value::Loss(0).before(), Value::Win(1));
        assert_eq!(Value::Win(3).before(), Value::Loss(4));
    }
}
