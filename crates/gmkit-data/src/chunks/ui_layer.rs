//! `UILR` (2024.13+, non-LTS): UI layers, trees of flexbox panels holding instances.
//!
//! Layout (public notes, checked against the corpus): a pointer list of root nodes. A node: `i32`
//! type (0 layer, 1 flex panel, 3 object, 4 sequence, 5 sprite, 6 text item, 7 effect layer), a
//! pointer to its data, then for containers (layers, flex panels) a pointer list of child nodes,
//! for the others a `u32` 0. The children follow the header, each complete (header, subtree,
//! data), then the node's own data: a leaf's data right after its header, a container's after
//! its last descendant. Every pointer must point where that order puts its target, which is the
//! layout the writer reproduces (so the tree is read in one pass, linear in the chunk size).
//!
//! Node data: a layer is its name, `i32` draw space (1 GUI, 2 view), bool32 visible and the
//! container settings ([`FlexContainer`]); a flex panel ([`FlexPanel`]) its name, size, offsets,
//! margins and container settings; an object is a room [`Instance`] record, a sequence or sprite a
//! [`SpriteInstance`] record, a text item a [`TextItem`] record, each followed by its placement
//! ([`FlexItem`]); an effect layer is bool32 enabled, the effect type name and a pointer list of
//! [`EffectProperty`] records (12 bytes each). The corpus has layers, flex panels and objects;
//! the other node kinds follow the public notes only (they reuse the room records gmkit reads).

pub mod flex;

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::room::assets::{SequenceInstance, SpriteInstance, TextItem};
use crate::chunks::room::instance::Instance;
use crate::chunks::room::layer::{EffectProperty, LayerEffect};
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;
pub use flex::{FlexContainer, FlexItem, FlexValue};

/// Deepest UI node tree read or written (the root is depth 0): deeper nesting is refused, so
/// the recursive reader, writer, comparisons and drops stay far from the stack's end.
pub const MAX_UI_DEPTH: usize = 48;

/// The `UILR` chunk: UI layer trees.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UiLayers {
    /// The root nodes (UI layers, normally).
    pub roots: Vec<UiNode>,
}

/// One node of a UI layer tree.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UiNode {
    /// Type 0: a UI layer (container).
    Layer(UiLayer),
    /// Type 1: a flex panel (container).
    FlexPanel(FlexPanel),
    /// Type 3: an object instance.
    Object(UiItem<Instance>),
    /// Type 4: a sequence instance.
    Sequence(UiItem<SequenceInstance>),
    /// Type 5: a sprite instance.
    Sprite(UiItem<SpriteInstance>),
    /// Type 6: a text item.
    TextItem(UiItem<TextItem>),
    /// Type 7: an effect layer.
    Effect(LayerEffect),
}

/// A UI layer: the root of a tree.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UiLayer {
    /// Layer name.
    pub name: StringRef,
    /// Where it is drawn (1 GUI space, 2 view space).
    pub draw_space: i32,
    /// Whether the layer is visible.
    pub visible: bool,
    /// How the children are laid out.
    pub flex: FlexContainer,
    /// Child nodes.
    pub children: Vec<UiNode>,
}

/// A flex panel: a box of the layout, holding items and other panels.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlexPanel {
    /// Panel name.
    pub name: StringRef,
    /// Width.
    pub width: FlexValue,
    /// Height.
    pub height: FlexValue,
    /// Minimum width.
    pub min_width: FlexValue,
    /// Minimum height.
    pub min_height: FlexValue,
    /// Maximum width.
    pub max_width: FlexValue,
    /// Maximum height.
    pub max_height: FlexValue,
    /// Offset: left.
    pub offset_left: FlexValue,
    /// Offset: right.
    pub offset_right: FlexValue,
    /// Offset: top.
    pub offset_top: FlexValue,
    /// Offset: bottom.
    pub offset_bottom: FlexValue,
    /// Whether the panel clips its contents.
    pub clips_contents: bool,
    /// Position type (0 static, 1 relative, 2 absolute).
    pub position_type: i32,
    /// Align self (as [`FlexContainer::align_items`]).
    pub align_self: i32,
    /// Margin: left.
    pub margin_left: FlexValue,
    /// Margin: right.
    pub margin_right: FlexValue,
    /// Margin: top.
    pub margin_top: FlexValue,
    /// Margin: bottom.
    pub margin_bottom: FlexValue,
    /// Flex grow factor.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub flex_grow: f32,
    /// Flex shrink factor.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub flex_shrink: f32,
    /// How the children are laid out.
    pub flex: FlexContainer,
    /// Child nodes.
    pub children: Vec<UiNode>,
}

/// An instance placed in a flex panel: the room record of its kind, and its placement.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UiItem<T> {
    /// The instance (the same record as in a room).
    pub instance: T,
    /// Its placement in the panel.
    pub flex: FlexItem,
}

impl UiNode {
    /// The type number stored for this node.
    pub fn type_number(&self) -> i32 {
        match self {
            UiNode::Layer(_) => 0,
            UiNode::FlexPanel(_) => 1,
            UiNode::Object(_) => 3,
            UiNode::Sequence(_) => 4,
            UiNode::Sprite(_) => 5,
            UiNode::TextItem(_) => 6,
            UiNode::Effect(_) => 7,
        }
    }

    /// The node's name: the layer, panel or instance name (objects and effects have none).
    pub fn name(&self) -> Option<StringRef> {
        match self {
            UiNode::Layer(l) => Some(l.name),
            UiNode::FlexPanel(p) => Some(p.name),
            UiNode::Sequence(s) => Some(s.instance.name),
            UiNode::Sprite(s) => Some(s.instance.name),
            UiNode::TextItem(t) => Some(t.instance.name),
            UiNode::Object(_) | UiNode::Effect(_) => None,
        }
    }

    /// The child nodes (`None` for nodes that are not containers).
    pub fn children(&self) -> Option<&Vec<UiNode>> {
        match self {
            UiNode::Layer(l) => Some(&l.children),
            UiNode::FlexPanel(p) => Some(&p.children),
            _ => None,
        }
    }

    /// The child nodes, mutably (`None` for nodes that are not containers).
    pub fn children_mut(&mut self) -> Option<&mut Vec<UiNode>> {
        match self {
            UiNode::Layer(l) => Some(&mut l.children),
            UiNode::FlexPanel(p) => Some(&mut p.children),
            _ => None,
        }
    }
}

/// Whether nodes of this type have a child list.
fn is_container(node_type: i32) -> bool {
    matches!(node_type, 0 | 1)
}

/// Reads the pointer list at the reader's position and each node it points at, which must
/// follow one another in pointer order.
fn read_list(r: &mut Reader, what: &'static str, depth: usize) -> Result<Vec<UiNode>> {
    let ptrs = r.pointers(what)?;
    let mut out = Vec::with_capacity(ptrs.len());
    for p in ptrs {
        r.expect_element_at(p, what)?;
        out.push(read_node(r, depth)?);
    }
    Ok(out)
}

fn read_node(r: &mut Reader, depth: usize) -> Result<UiNode> {
    let at = r.pos();
    let node_type = r.i32()?;
    if !matches!(node_type, 0 | 1 | 3..=7) {
        return Err(r.error_at(
            at,
            invalid("UI node type", "0, 1 or 3 to 7", node_type),
        ));
    }
    let data_ptr = r.u32()?;
    let children = if is_container(node_type) {
        if depth >= MAX_UI_DEPTH {
            return Err(r.error_at(
                at,
                invalid(
                    "UI node depth",
                    format!("at most {MAX_UI_DEPTH} levels of containers"),
                    format!("a container with children at level {depth}"),
                ),
            ));
        }
        read_list(r, "UI child node", depth + 1)?
    } else {
        let list_at = r.pos();
        let n = r.u32()?;
        if n != 0 {
            return Err(r.error_at(
                list_at,
                invalid("UI node child count", "0 (only layers and panels have children)", n),
            ));
        }
        Vec::new()
    };
    r.expect_element_at(data_ptr, "UI node data")?;
    Ok(match node_type {
        0 => UiNode::Layer(UiLayer {
            name: r.string()?,
            draw_space: r.i32()?,
            visible: r.bool32()?,
            flex: FlexContainer::read(r)?,
            children,
        }),
        1 => {
            let name = r.string()?;
            let mut v = [FlexValue::default(); 10];
            for x in &mut v {
                *x = FlexValue::read(r)?;
            }
            let clips_contents = r.bool32()?;
            let position_type = r.i32()?;
            let align_self = r.i32()?;
            let mut m = [FlexValue::default(); 4];
            for x in &mut m {
                *x = FlexValue::read(r)?;
            }
            UiNode::FlexPanel(FlexPanel {
                name,
                width: v[0],
                height: v[1],
                min_width: v[2],
                min_height: v[3],
                max_width: v[4],
                max_height: v[5],
                offset_left: v[6],
                offset_right: v[7],
                offset_top: v[8],
                offset_bottom: v[9],
                clips_contents,
                position_type,
                align_self,
                margin_left: m[0],
                margin_right: m[1],
                margin_top: m[2],
                margin_bottom: m[3],
                flex_grow: r.f32()?,
                flex_shrink: r.f32()?,
                flex: FlexContainer::read(r)?,
                children,
            })
        }
        3 => UiNode::Object(item(r, Instance::read)?),
        4 => UiNode::Sequence(item(r, SpriteInstance::read)?),
        5 => UiNode::Sprite(item(r, SpriteInstance::read)?),
        6 => UiNode::TextItem(item(r, TextItem::read)?),
        _ => {
            let enabled = r.bool32()?;
            let effect_type = r.string_opt()?;
            let properties = r.pointers("UI effect property")?;
            let mut list = Vec::with_capacity(properties.len());
            for p in properties {
                r.expect_element_at(p, "UI effect property")?;
                list.push(EffectProperty {
                    kind: r.i32()?,
                    name: r.string()?,
                    value: r.string_opt()?,
                });
            }
            UiNode::Effect(LayerEffect {
                enabled,
                effect_type,
                properties: list,
            })
        }
    })
}

fn item<T>(r: &mut Reader, read: fn(&mut Reader) -> Result<T>) -> Result<UiItem<T>> {
    Ok(UiItem {
        instance: read(r)?,
        flex: FlexItem::read(r)?,
    })
}

fn write_list(w: &mut Writer, nodes: &[UiNode], depth: usize) -> Result<()> {
    let slots = w.pointer_slots(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        w.fill_slot(slots, i);
        write_node(w, n, depth)?;
    }
    Ok(())
}

fn write_node(w: &mut Writer, n: &UiNode, depth: usize) -> Result<()> {
    w.i32(n.type_number());
    let data_slot = w.pos();
    w.u32(0);
    match n.children() {
        Some(c) => {
            if depth >= MAX_UI_DEPTH {
                return Err(w.unwritable(
                    "UI node",
                    format!("the tree is deeper than {MAX_UI_DEPTH} levels"),
                ));
            }
            write_list(w, c, depth + 1)?;
        }
        None => w.u32(0),
    }
    let p = w.pos32();
    w.patch_u32(data_slot, p);
    match n {
        UiNode::Layer(l) => {
            w.string(l.name);
            w.i32(l.draw_space);
            w.bool32(l.visible);
            l.flex.write(w);
        }
        UiNode::FlexPanel(f) => {
            w.string(f.name);
            for v in [
                f.width,
                f.height,
                f.min_width,
                f.min_height,
                f.max_width,
                f.max_height,
                f.offset_left,
                f.offset_right,
                f.offset_top,
                f.offset_bottom,
            ] {
                v.write(w);
            }
            w.bool32(f.clips_contents);
            w.i32(f.position_type);
            w.i32(f.align_self);
            for v in [f.margin_left, f.margin_right, f.margin_top, f.margin_bottom] {
                v.write(w);
            }
            w.f32(f.flex_grow);
            w.f32(f.flex_shrink);
            f.flex.write(w);
        }
        UiNode::Object(o) => {
            o.instance.write(w)?;
            o.flex.write(w);
        }
        UiNode::Sequence(s) => {
            s.instance.write(w)?;
            s.flex.write(w);
        }
        UiNode::Sprite(s) => {
            s.instance.write(w)?;
            s.flex.write(w);
        }
        UiNode::TextItem(t) => {
            t.instance.write(w)?;
            t.flex.write(w);
        }
        UiNode::Effect(e) => {
            w.bool32(e.enabled);
            w.string_opt(e.effect_type);
            w.pointer_list_required(&e.properties, |w, p| {
                w.i32(p.kind);
                w.string(p.name);
                w.string_opt(p.value);
                Ok(())
            })?;
        }
    }
    Ok(())
}

impl Chunk for UiLayers {
    const NAME: ChunkName = ChunkName(*b"UILR");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(UiLayers {
            roots: read_list(r, "UI root node", 0)?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        write_list(w, &self.roots, 0)
    }
}

/// UILR proves the non-LTS branch (its presence sets the 2024.13 floor, §1.2).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if d.has(b"UILR") {
        v.lts = false;
    }
}
