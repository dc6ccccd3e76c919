//! The network file: a header that names the format's version and the
//! shape, the quantised weights in little-endian order, and a checksum.
//!
//! ```text
//! "LGNN"  u32 version  u32 inputs  u32 hidden  u32 buckets  u32 scale
//! u32 activation (0 clipped ReLU, 1 its square)
//! u32 description length   description (UTF-8)
//! w1: inputs × hidden i16   b1: hidden i16
//! w2: buckets × 2 × hidden i16   b2: buckets × i32
//! u64 FNV-1a of everything before it
//! ```
//!
//! Version 1 had no `buckets` and `scale` fields and one set of output
//! weights; such a file (the first trained nets) is still read, its one
//! set used for every bucket and its scale 400, which is the same
//! function. Version 2 had no `activation` field: its nets are clipped
//! ReLU. A squared-activation net whose output weights pass
//! ±`SCRELU_W2_MAX` is refused (the engine's 16-bit product would wrap).
//! Any other version or shape is refused with the reason, never
//! half-read.

use super::features::INPUTS;
use super::{Activation, BUCKETS, DEFAULT_SCALE, HIDDEN, MAX_SCALE, Network, SCRELU_W2_MAX};

const MAGIC: &[u8; 4] = b"LGNN";
/// Raised whenever the features, the shape or the quantisation change.
pub const VERSION: u32 = 3;
/// The version before output buckets, still read.
const VERSION_ONE_BUCKET: u32 = 1;
/// The version before the activation field, still read.
const VERSION_CLIPPED: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("not a Legion network (the file does not start with LGNN)")]
    Magic,
    #[error("network format version {found}, this engine reads versions 1 to {expected}")]
    Version { found: u32, expected: u32 },
    #[error(
        "network of {inputs} inputs, {hidden} hidden neurons and {buckets} output buckets, this engine has {INPUTS}, {HIDDEN} and {BUCKETS}"
    )]
    Shape {
        inputs: u32,
        hidden: u32,
        buckets: u32,
    },
    #[error("network scale {0}: it must be 1 to {MAX_SCALE} hundredths of a man")]
    Scale(u32),
    #[error("network activation {0}: this engine knows 0 (clipped ReLU) and 1 (its square)")]
    Activation(u32),
    #[error(
        "a squared-activation network's output weight {0} is beyond ±{SCRELU_W2_MAX}, which the engine's arithmetic needs"
    )]
    OutputWeight(i16),
    #[error("the network file is cut short")]
    Short,
    #[error("the network file has {0} bytes too many")]
    Long(usize),
    #[error("the network file is damaged (checksum differs)")]
    Checksum,
    #[error("the network's description is not UTF-8")]
    Description,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetError> {
        let s = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or(NetError::Short)?;
        self.at += N;
        Ok(s.try_into().expect("N bytes"))
    }
    fn u32(&mut self) -> Result<u32, NetError> {
        self.take().map(u32::from_le_bytes)
    }
    fn i16(&mut self) -> Result<i16, NetError> {
        self.take().map(i16::from_le_bytes)
    }
}

/// A squared activation's output weights must stay within
/// ±`SCRELU_W2_MAX`: the first one beyond is the error.
fn output_weights_fit(
    activation: Activation,
    w2: &[[i16; 2 * HIDDEN]; BUCKETS],
) -> Result<(), NetError> {
    if activation == Activation::ClippedRelu {
        return Ok(());
    }
    match w2.iter().flatten().find(|w| w.abs() > SCRELU_W2_MAX) {
        Some(&w) => Err(NetError::OutputWeight(w)),
        None => Ok(()),
    }
}

/// Reads a network file.
pub fn read(bytes: &[u8]) -> Result<Network, NetError> {
    let mut r = Reader { bytes, at: 0 };
    if &r.take::<4>()? != MAGIC {
        return Err(NetError::Magic);
    }
    let version = r.u32()?;
    if !(VERSION_ONE_BUCKET..=VERSION).contains(&version) {
        return Err(NetError::Version {
            found: version,
            expected: VERSION,
        });
    }
    let (inputs, hidden) = (r.u32()?, r.u32()?);
    let (buckets, scale) = if version == VERSION_ONE_BUCKET {
        (1, DEFAULT_SCALE as u32)
    } else {
        (r.u32()?, r.u32()?)
    };
    if inputs as usize != INPUTS
        || hidden as usize != HIDDEN
        || (buckets as usize != BUCKETS && version != VERSION_ONE_BUCKET)
    {
        return Err(NetError::Shape {
            inputs,
            hidden,
            buckets,
        });
    }
    if !(1..=MAX_SCALE as u32).contains(&scale) {
        return Err(NetError::Scale(scale));
    }
    let activation = if version > VERSION_CLIPPED {
        let code = r.u32()?;
        Activation::from_code(code).ok_or(NetError::Activation(code))?
    } else {
        Activation::ClippedRelu
    };
    let stored = buckets as usize;
    let len = r.u32()? as usize;
    let text = bytes.get(r.at..r.at + len).ok_or(NetError::Short)?;
    let description = std::str::from_utf8(text)
        .map_err(|_| NetError::Description)?
        .to_string();
    r.at += len;
    let body = r.at + (INPUTS * HIDDEN + HIDDEN + stored * 2 * HIDDEN) * 2 + stored * 4;
    match bytes.len().cmp(&(body + 8)) {
        std::cmp::Ordering::Less => return Err(NetError::Short),
        std::cmp::Ordering::Greater => return Err(NetError::Long(bytes.len() - body - 8)),
        std::cmp::Ordering::Equal => {}
    }
    let sum = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if sum != fnv1a(&bytes[..body]) {
        return Err(NetError::Checksum);
    }
    let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
    for row in &mut w1 {
        for w in row.iter_mut() {
            *w = r.i16()?;
        }
    }
    let mut b1 = [0i16; HIDDEN];
    for b in &mut b1 {
        *b = r.i16()?;
    }
    let mut w2 = [[0i16; 2 * HIDDEN]; BUCKETS];
    for set in w2.iter_mut().take(stored) {
        for w in set.iter_mut() {
            *w = r.i16()?;
        }
    }
    let mut b2 = [0i32; BUCKETS];
    for b in b2.iter_mut().take(stored) {
        *b = i32::from_le_bytes(r.take()?);
    }
    if stored == 1 {
        // Version 1: its one output for every bucket.
        let (w, b) = (w2[0], b2[0]);
        w2.fill(w);
        b2.fill(b);
    }
    output_weights_fit(activation, &w2)?;
    Ok(Network {
        w1,
        b1,
        w2,
        b2,
        scale: scale as i32,
        activation,
        description,
    })
}

/// Writes a network file (the trainer's output).
pub fn write(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(INPUTS * HIDDEN * 2 + 4096);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    out.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
    out.extend_from_slice(&(net.scale as u32).to_le_bytes());
    out.extend_from_slice(&net.activation.code().to_le_bytes());
    out.extend_from_slice(&(net.description.len() as u32).to_le_bytes());
    out.extend_from_slice(net.description.as_bytes());
    for row in &net.w1 {
        for w in row {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    for b in &net.b1 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    for w in net.w2.iter().flatten() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

impl Network {
    /// A network from weights already quantised (the trainer's output):
    /// `w1` holds `INPUTS` rows of `HIDDEN`, `scale` is 1 to `MAX_SCALE`,
    /// and a squared activation's output weights are within
    /// ±`SCRELU_W2_MAX`.
    pub fn from_parts(
        w1: Vec<[i16; HIDDEN]>,
        b1: [i16; HIDDEN],
        w2: [[i16; 2 * HIDDEN]; BUCKETS],
        b2: [i32; BUCKETS],
        scale: i32,
        activation: Activation,
        description: String,
    ) -> Option<Network> {
        let weights_fit = output_weights_fit(activation, &w2).is_ok();
        (w1.len() == INPUTS && (1..=MAX_SCALE).contains(&scale) && weights_fit).then_some(Network {
            w1,
            b1,
            w2,
            b2,
            scale,
            activation,
            description,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_survives_writing_and_reading() {
        let net = &*crate::nnue::embedded().unwrap();
        let bytes = write(net);
        let back = read(&bytes).unwrap();
        assert_eq!(write(&back), bytes);
    }

    /// A version 1 file (no bucket field, one output) of the net's first
    /// bucket, written by hand from the layout of the module's note.
    fn version_one(net: &Network) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(net.description.len() as u32).to_le_bytes());
        out.extend_from_slice(net.description.as_bytes());
        for w in net.w1.iter().flatten().chain(&net.b1).chain(&net.w2[0]) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&net.b2[0].to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn a_version_one_file_uses_its_one_output_for_every_bucket() {
        let net = &*crate::nnue::embedded().unwrap();
        let old = read(&version_one(net)).unwrap();
        assert!(old.w2.iter().all(|w| *w == net.w2[0]));
        assert!(old.b2.iter().all(|b| *b == net.b2[0]));
        assert_eq!(old.scale, DEFAULT_SCALE);
        assert_eq!(old.w1, net.w1);
        assert_eq!(old.description, net.description);
        // Cut short or damaged, it is refused like any file.
        let bytes = version_one(net);
        assert_eq!(
            read(&bytes[..bytes.len() - 1]).unwrap_err(),
            NetError::Short
        );
    }

    /// A version 2 file (no activation field) of `net`, written by hand
    /// from the layout of the module's note.
    fn version_two(net: &Network) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for field in [2, INPUTS, HIDDEN, BUCKETS, 400] {
            out.extend_from_slice(&(field as u32).to_le_bytes());
        }
        out.extend_from_slice(&(net.description.len() as u32).to_le_bytes());
        out.extend_from_slice(net.description.as_bytes());
        let (w2, b1) = (net.w2.iter().flatten(), net.b1.iter());
        for w in net.w1.iter().flatten().chain(b1).chain(w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &net.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn a_version_two_file_is_a_clipped_relu_net() {
        let mut net = (*crate::nnue::embedded().unwrap()).clone();
        net.scale = 400;
        net.activation = Activation::SquaredClippedRelu;
        let old = read(&version_two(&net)).unwrap();
        assert_eq!(old.activation, Activation::ClippedRelu);
        assert_eq!((old.w1, old.w2, old.b2), (net.w1, net.w2, net.b2));
    }

    #[test]
    fn a_squared_net_keeps_its_activation_and_its_weights_in_range() {
        let mut net = (*crate::nnue::embedded().unwrap()).clone();
        for w in net.w2.iter_mut().flatten() {
            *w = (*w).clamp(-SCRELU_W2_MAX, SCRELU_W2_MAX);
        }
        net.activation = Activation::SquaredClippedRelu;
        let back = read(&write(&net)).unwrap();
        assert_eq!(back.activation, Activation::SquaredClippedRelu);
        net.w2[3][5] = SCRELU_W2_MAX + 1;
        assert_eq!(
            read(&write(&net)).unwrap_err(),
            NetError::OutputWeight(SCRELU_W2_MAX + 1)
        );
        let (w1, b1, w2, b2) = (net.w1.clone(), net.b1, net.w2, net.b2);
        let activation = Activation::SquaredClippedRelu;
        assert!(Network::from_parts(w1, b1, w2, b2, 400, activation, String::new()).is_none());
        net.activation = Activation::ClippedRelu;
        assert!(read(&write(&net)).is_ok());
    }

    #[test]
    fn a_bad_file_is_refused_with_its_reason() {
        let bytes = write(&crate::nnue::embedded().unwrap());
        assert_eq!(read(b"GIF89a").unwrap_err(), NetError::Magic);
        let mut v4 = bytes.clone();
        v4[4] = 4;
        assert_eq!(
            read(&v4).unwrap_err(),
            NetError::Version {
                found: 4,
                expected: VERSION
            }
        );
        let mut activation = bytes.clone();
        activation[24] = 7;
        assert_eq!(read(&activation).unwrap_err(), NetError::Activation(7));
        let mut shape = bytes.clone();
        // A 512-wide net (0x0200), not this engine's 256.
        shape[12] = 0;
        shape[13] = 2;
        assert_eq!(
            read(&shape).unwrap_err(),
            NetError::Shape {
                inputs: INPUTS as u32,
                hidden: 512,
                buckets: BUCKETS as u32
            }
        );
        let mut scale = bytes.clone();
        scale[20..24].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(read(&scale).unwrap_err(), NetError::Scale(0));
        scale[20..24].copy_from_slice(&5000u32.to_le_bytes());
        assert_eq!(read(&scale).unwrap_err(), NetError::Scale(5000));
        let mut buckets = bytes.clone();
        buckets[16] = 4;
        assert_eq!(
            read(&buckets).unwrap_err(),
            NetError::Shape {
                inputs: INPUTS as u32,
                hidden: HIDDEN as u32,
                buckets: 4
            }
        );
        assert_eq!(
            read(&bytes[..bytes.len() - 9]).unwrap_err(),
            NetError::Short
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(read(&long).unwrap_err(), NetError::Long(1));
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        assert_eq!(read(&flipped).unwrap_err(), NetError::Checksum);
        for cut in [0, 3, 7, 19, 200] {
            assert!(read(&bytes[..cut]).is_err());
        }
    }
}
