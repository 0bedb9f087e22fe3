//! Sprite collision masks as 1-bit PNGs.
