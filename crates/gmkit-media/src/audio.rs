//! Embedded audio.
