//! New code entries wired as GameMaker wires them: scripts, object events, room and instance
//! creation code, and new objects.
//!
//! A code entry is only reachable through what points at it: a script (`SCPT`, and from 2.3 the
//! global-script list `GLOB`), an object event's "execute code" action (`OBJT`), a room's or a
//! room instance's creation code (`ROOM`). [`DataFile::add_code_entry`] appends an entry with no
//! instructions yet, named as GameMaker names it ([`DataFile::code_entry_name`]), with its
//! code-locals record (`FUNC`, bytecode 15 to 2024.8) and every such link; the caller then
//! puts its instructions in place (the GML compiler: `gmkit_gml::entries`, or the assembler).
//! The 2.3+ script functions a global script defines are child entries of it
//! ([`DataFile::add_child_entry`]).
//!
//! Names, as the corpus shows them for each version family:
//!
//! | what | GMS 1.4 – 2.2 | 2.3+ |
//! |---|---|---|
//! | script | `gml_Script_<name>` (SCPT `<name>` → it) | root `gml_GlobalScript_<name>` (SCPT `<name>` → it, listed in GLOB); each function `f` it defines: child `gml_Script_f` (SCPT `gml_Script_f` → it) |
//! | object event | `gml_Object_<object>_<Event>_<subtype>` | the same |
//! | collision event | GMS1: `..._Collision_<object index>`; 2.0–2.2: `..._Collision_<object GUID>` (`8663f8a3_879c_...`) | `..._Collision_<object name>` |
//! | room creation code | `gml_Room_<room>_Create` | the same |
//! | instance creation code | `gml_RoomCC_<room>_<n>_Create` | the same |
//!
//! Event types and their names are one table, [`EventType`]. A GMS1 object's events of one type
//! are stored in descending subtype order (every corpus file), and a new event joins that
//! order; GMS2 files keep the project's order (both orders occur in the corpus), and a new
//! event goes last, where the IDE appends it; its action record copies the shape of an existing action of the same file (the
//! "execute code" action differs between versions: an empty action name and one argument, or
//! no name and no argument), with its code id set.
//!
//! Facts GameMaker's project holds and a data file does not are chosen as follows: the GUID
//! of a 2.0–2.2 collision target is taken from an existing collision entry with the same target
//! when there is one, and otherwise made from the target's name (deterministic, GUID-shaped);
//! the `<n>` of an instance's creation code is, in GMS2 files, the number of earlier instances
//! of the room that have creation or pre-create code (as in every corpus file), and in GMS1
//! files (a project-wide counter there) one past the highest such number in the file; either
//! moves on to the next free number when the name is taken.

use crate::chunks::DataFile;
use crate::chunks::code::{CodeBody, CodeEntry};
use crate::chunks::function::{CodeLocals, Local};
use crate::chunks::object::{Action, Event, Object, Physics};
use crate::chunks::room::Room;
use crate::chunks::script::Script;
use crate::error::{Error, ErrorKind, ModelProblem, Result};
use crate::refs::{AssetRef, Id, StringRef};

/// An object event type: its number in the object's event lists and its name in code entry
/// names (`gml_Object_obj_player_Step_0`). Numbers and names: the GameMaker manual's event
/// constants (`ev_create` = 0 ... `ev_pre_create` = 14) and the corpus's entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventType {
    /// 0: Create.
    Create,
    /// 1: Destroy.
    Destroy,
    /// 2: Alarm N (subtype: alarm number 0–11).
    Alarm,
    /// 3: Step (subtype: 0 step, 1 begin step, 2 end step).
    Step,
    /// 4: Collision (subtype: the other object's index).
    Collision,
    /// 5: Keyboard (subtype: key code).
    Keyboard,
    /// 6: Mouse (subtype: mouse event number).
    Mouse,
    /// 7: Other (subtype: outside room, game start, user events 10–25, async events, ...).
    Other,
    /// 8: Draw (subtype: 0 draw, 64 Draw GUI, 72 draw begin, 73 draw end, 74 GUI begin, 75
    /// GUI end, 76 pre-draw, 77 post-draw).
    Draw,
    /// 9: Key press (subtype: key code).
    KeyPress,
    /// 10: Key release (subtype: key code).
    KeyRelease,
    /// 11: Trigger (GMS1).
    Trigger,
    /// 12: Clean up.
    CleanUp,
    /// 13: Gesture (subtype: gesture event number).
    Gesture,
    /// 14: Pre-create (generated from an object's variable definitions).
    PreCreate,
}

impl EventType {
    /// Every event type, in number order.
    pub const ALL: [EventType; 15] = [
        EventType::Create,
        EventType::Destroy,
        EventType::Alarm,
        EventType::Step,
        EventType::Collision,
        EventType::Keyboard,
        EventType::Mouse,
        EventType::Other,
        EventType::Draw,
        EventType::KeyPress,
        EventType::KeyRelease,
        EventType::Trigger,
        EventType::CleanUp,
        EventType::Gesture,
        EventType::PreCreate,
    ];

    /// The event type's number (its index in [`Object::events`]).
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The event type numbered `n`.
    pub fn from_number(n: u32) -> Option<EventType> {
        Self::ALL.get(n as usize).copied()
    }

    /// The name code entries use (`Create`, `Draw`, `KeyPress`, `CleanUp`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EventType::Create => "Create",
            EventType::Destroy => "Destroy",
            EventType::Alarm => "Alarm",
            EventType::Step => "Step",
            EventType::Collision => "Collision",
            EventType::Keyboard => "Keyboard",
            EventType::Mouse => "Mouse",
            EventType::Other => "Other",
            EventType::Draw => "Draw",
            EventType::KeyPress => "KeyPress",
            EventType::KeyRelease => "KeyRelease",
            EventType::Trigger => "Trigger",
            EventType::CleanUp => "CleanUp",
            EventType::Gesture => "Gesture",
            EventType::PreCreate => "PreCreate",
        }
    }

    /// The event type named `name` (as in code entry names).
    pub fn from_name(name: &str) -> Option<EventType> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// What a new code entry belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryTarget {
    /// A script asset named `name` (2.3+: a global script, whose functions become child
    /// entries).
    Script {
        /// The script's asset name.
        name: String,
    },
    /// An event of an object.
    Event {
        /// The object.
        object: Id<Object>,
        /// The event type.
        event: EventType,
        /// The subtype (alarm number, step kind, other object's index, key code, ...).
        subtype: u32,
    },
    /// A room's creation code.
    RoomCreation {
        /// The room.
        room: Id<Room>,
    },
    /// The creation code of one instance of a room.
    InstanceCreation {
        /// The room.
        room: Id<Room>,
        /// The instance's index in the room's instance list.
        instance: usize,
    },
}

/// A code entry added by [`DataFile::add_code_entry`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    /// Its index in CODE.
    pub entry: usize,
    /// Its name.
    pub name: String,
}

/// The error for a request the file cannot take.
fn refuse(
    element: impl Into<String>,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> Error {
    Error::at(
        0,
        ErrorKind::InvalidModel(Box::new(ModelProblem {
            element: element.into(),
            field: String::new(),
            expected: expected.into(),
            found: found.into(),
        })),
    )
}

/// The deterministic GUID-shaped text (`8-4-4-4-12` lowercase hex digits joined by `_`) made
/// from `seed`, for a 2.0–2.2 collision target whose project GUID the file does not show.
pub fn guid_from_name(seed: &str) -> String {
    let mut digits = String::with_capacity(32);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for round in 0u8..2 {
        for &b in seed.as_bytes().iter().chain(&[round]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        digits.push_str(&format!("{h:016x}"));
    }
    format!(
        "{}_{}_{}_{}_{}",
        &digits[0..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..32]
    )
}

impl DataFile {
    fn text(&self, r: StringRef) -> String {
        self.strings
            .as_ref()
            .and_then(|s| s.get(r))
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The index of the code entry named `name`.
    ///
    /// ```
    /// use gmkit_data::chunks::object::Object;
    /// use gmkit_data::code_entry::{EntryTarget, EventType};
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// let target = EntryTarget::Event { object: obj, event: EventType::Create, subtype: 0 };
    /// let new = data.add_code_entry(&target).unwrap();
    /// assert_eq!(data.find_code_entry("gml_Object_obj_player_Create_0"), Some(new.entry));
    /// assert_eq!(data.find_code_entry("gml_Object_obj_enemy_Create_0"), None);
    /// ```
    pub fn find_code_entry(&self, name: &str) -> Option<usize> {
        let code = self.code.as_ref()?;
        let strings = self.strings.as_ref()?;
        code.entries.iter().position(|e| {
            strings
                .get(e.name)
                .is_some_and(|s| s.as_bytes() == name.as_bytes())
        })
    }

    fn object_name(&self, id: Id<Object>) -> Result<String> {
        let o = self.asset(id).ok_or_else(|| {
            refuse(
                "the new event",
                "an existing object",
                format!("object #{}", id.index()),
            )
        })?;
        Ok(self.text(o.name))
    }

    /// The name GameMaker gives the code entry of `target` (see the module's table).
    ///
    /// ```
    /// use gmkit_data::chunks::object::Object;
    /// use gmkit_data::code_entry::{EntryTarget, EventType};
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// let step = EntryTarget::Event { object: obj, event: EventType::Step, subtype: 0 };
    /// assert_eq!(data.code_entry_name(&step).unwrap(), "gml_Object_obj_player_Step_0");
    /// let script = EntryTarget::Script { name: "scr_move".into() };
    /// assert_eq!(data.code_entry_name(&script).unwrap(), "gml_Script_scr_move"); // before 2.3
    /// ```
    pub fn code_entry_name(&self, target: &EntryTarget) -> Result<String> {
        let v = &self.version;
        Ok(match target {
            EntryTarget::Script { name } if v.at_least(2, 3) => format!("gml_GlobalScript_{name}"),
            EntryTarget::Script { name } => format!("gml_Script_{name}"),
            EntryTarget::Event {
                object,
                event,
                subtype,
            } => {
                let obj = self.object_name(*object)?;
                let sub = if *event == EventType::Collision && v.is_gms2() {
                    let other: Id<Object> = Id::new(*subtype);
                    let other_name = self.object_name(other)?;
                    if v.at_least(2, 3) {
                        other_name
                    } else {
                        self.collision_guid(*subtype)
                            .unwrap_or_else(|| guid_from_name(&other_name))
                    }
                } else {
                    subtype.to_string()
                };
                format!("gml_Object_{obj}_{}_{sub}", event.name())
            }
            EntryTarget::RoomCreation { room } => {
                format!("gml_Room_{}_Create", self.room_name(*room)?)
            }
            EntryTarget::InstanceCreation { room, instance } => {
                let rname = self.room_name(*room)?;
                let r = self.asset(*room).expect("named above");
                if *instance >= r.instances.len() {
                    return Err(refuse(
                        format!("room \"{rname}\""),
                        format!("an instance index below {}", r.instances.len()),
                        instance.to_string(),
                    ));
                }
                let prefix = format!("gml_RoomCC_{rname}_");
                let mut n = if v.is_gms2() {
                    r.instances[..*instance]
                        .iter()
                        .filter(|i| {
                            i.creation_code.id().is_some()
                                || i.pre_create_code.is_some_and(|c| c.id().is_some())
                        })
                        .count()
                } else {
                    self.highest_room_cc().map_or(0, |h| h + 1)
                };
                while self
                    .find_code_entry(&format!("{prefix}{n}_Create"))
                    .is_some()
                    || self
                        .find_code_entry(&format!("{prefix}{n}_PreCreate"))
                        .is_some()
                {
                    n += 1;
                }
                format!("{prefix}{n}_Create")
            }
        })
    }

    fn room_name(&self, id: Id<Room>) -> Result<String> {
        let r = self.asset(id).ok_or_else(|| {
            refuse(
                "the new creation code",
                "an existing room",
                format!("room #{}", id.index()),
            )
        })?;
        Ok(self.text(r.name))
    }

    /// The highest `<n>` of the file's `gml_RoomCC_<room>_<n>_Create` entries.
    fn highest_room_cc(&self) -> Option<usize> {
        let code = self.code.as_ref()?;
        code.entries
            .iter()
            .filter_map(|e| {
                let name = self.text(e.name);
                let rest = name.strip_prefix("gml_RoomCC_")?;
                let rest = rest
                    .strip_suffix("_Create")
                    .or_else(|| rest.strip_suffix("_PreCreate"))?;
                rest.rsplit('_').next()?.parse::<usize>().ok()
            })
            .max()
    }

    /// The GUID suffix of an existing collision entry whose target is object `other`.
    fn collision_guid(&self, other: u32) -> Option<String> {
        let objects = self.objects.as_ref()?;
        for o in objects.objects.iter().flatten() {
            let list = o.events.get(EventType::Collision as usize)?;
            for e in list.iter().filter(|e| e.subtype == other) {
                let Some(a) = e.actions.iter().find(|a| a.code_id.id().is_some()) else {
                    continue;
                };
                let code = self.code.as_ref()?;
                let entry = code.entries.get(a.code_id.index()?)?;
                let name = self.text(entry.name);
                let prefix = format!("gml_Object_{}_Collision_", self.text(o.name));
                if let Some(g) = name.strip_prefix(&prefix) {
                    return Some(g.to_string());
                }
            }
        }
        None
    }

    /// The "execute code" action of the file's own events, for a new event running `code`.
    fn code_action(&mut self, code: usize) -> Result<Action> {
        let found = self
            .objects
            .as_ref()
            .and_then(|o| {
                o.objects
                    .iter()
                    .flatten()
                    .flat_map(|o| o.events.iter().flatten())
                    .flat_map(|e| e.actions.iter())
                    .find(|a| a.action_id == 603 && a.kind == 7)
            })
            .cloned();
        let mut a = match found {
            Some(a) => a,
            None => {
                let old = !self.version.at_least(2023, 1);
                Action {
                    library_id: 1,
                    action_id: 603,
                    kind: 7,
                    relative_usable: false,
                    is_question: false,
                    apply_to_usable: old,
                    exe_type: 2,
                    action_name: if old { Some(self.intern("")) } else { None },
                    code_id: AssetRef::NONE,
                    argument_count: u32::from(old),
                    who: crate::chunks::object::action::AppliesTo::Itself,
                    relative: false,
                    not: false,
                    unknown: 0,
                }
            }
        };
        a.code_id = AssetRef::at(
            u32::try_from(code).map_err(|_| refuse("CODE", "fewer entries", code.to_string()))?,
        );
        Ok(a)
    }

    /// Appends a new object named `name` with the defaults GameMaker writes for the file's
    /// version (no sprite, visible, not solid, depth 0, no parent, default physics; as many
    /// event-type lists as the file's other objects have) and returns its id.
    ///
    /// ```
    /// use gmkit_data::chunks::object::Object;
    /// use gmkit_data::code_entry::{EntryTarget, EventType};
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// let o: &Object = data.asset(obj).unwrap();
    /// assert!(o.visible && o.sprite.is_none() && o.parent.is_none());
    /// assert!(data.add_object("obj_player").is_err(), "a second object of that name");
    /// ```
    pub fn add_object(&mut self, name: &str) -> Result<Id<Object>> {
        if self.find_asset::<Object>(name).is_some() {
            return Err(refuse(
                "the new object",
                "a name no object has",
                format!("\"{name}\""),
            ));
        }
        let v = self.version;
        let types = self
            .objects
            .as_ref()
            .and_then(|o| o.objects.iter().flatten().next())
            .map(|o| o.events.len())
            .unwrap_or(if v.bytecode >= 17 {
                15
            } else if v.is_gms2() {
                14
            } else {
                13
            });
        let name = self.intern(name);
        let object = Object {
            name,
            sprite: AssetRef::NONE,
            visible: true,
            managed: v.at_least(2022, 5).then_some(true),
            solid: false,
            depth: 0,
            persistent: false,
            parent: AssetRef::NONE,
            mask_sprite: AssetRef::NONE,
            physics: Physics {
                enabled: false,
                sensor: false,
                shape: u32::from(v.is_gms2()),
                density: 0.5,
                restitution: 0.1,
                group: u32::from(v.at_least(2, 3)),
                linear_damping: 0.1,
                angular_damping: 0.1,
                friction: 0.2,
                awake: true,
                kinematic: false,
                vertices: Vec::new(),
            },
            events: vec![Vec::new(); types],
        };
        self.add_asset(object)
    }

    /// Checks that `target` can take a new entry (the object exists and lacks the event, the
    /// room has no creation code yet, ...).
    fn check_target(&self, target: &EntryTarget) -> Result<()> {
        match target {
            EntryTarget::Script { name } => {
                if self.scripts.is_none() {
                    return Err(refuse("the file", "a script table (SCPT)", "none"));
                }
                if self.find_asset::<Script>(name).is_some() {
                    return Err(refuse(
                        "the new script",
                        "a name no script has",
                        format!("\"{name}\""),
                    ));
                }
            }
            EntryTarget::Event {
                object,
                event,
                subtype,
            } => {
                let name = self.object_name(*object)?;
                let o = self.asset(*object).expect("named above");
                let Some(list) = o.events.get(event.number() as usize) else {
                    return Err(refuse(
                        format!("object \"{name}\""),
                        format!(
                            "an event type below {} (this version's event types)",
                            o.events.len()
                        ),
                        format!("{} ({})", event.name(), event.number()),
                    ));
                };
                if list.iter().any(|e| e.subtype == *subtype) {
                    return Err(refuse(
                        format!("object \"{name}\""),
                        "an event the object does not have yet",
                        format!("{} {subtype} (edit its code entry instead)", event.name()),
                    ));
                }
                if *event == EventType::Collision
                    && self.asset::<Object>(Id::new(*subtype)).is_none()
                {
                    return Err(refuse(
                        format!("object \"{name}\""),
                        "a collision with an existing object",
                        format!("object #{subtype}"),
                    ));
                }
            }
            EntryTarget::RoomCreation { room } => {
                let name = self.room_name(*room)?;
                if self
                    .asset(*room)
                    .is_some_and(|r| r.creation_code.id().is_some())
                {
                    return Err(refuse(
                        format!("room \"{name}\""),
                        "a room without creation code",
                        "creation code (edit its code entry instead)",
                    ));
                }
            }
            EntryTarget::InstanceCreation { room, instance } => {
                let name = self.room_name(*room)?;
                if let Some(i) = self.asset(*room).and_then(|r| r.instances.get(*instance))
                    && i.creation_code.id().is_some()
                {
                    return Err(refuse(
                        format!("room \"{name}\", instance {instance}"),
                        "an instance without creation code",
                        "creation code (edit its code entry instead)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Appends the code entry of `target` with no instructions yet, and wires it: the script
    /// (and, 2.3+, its GLOB listing), the object's event with its action, the room's or the
    /// instance's creation code; and its code-locals record (`arguments`) where the version
    /// keeps them. Nothing changes when it fails. The entry's instructions are for the caller
    /// to set (`CodeEntries::instructions_mut`), and its `locals_count` when it has locals.
    ///
    /// ```
    /// use gmkit_data::chunks::object::Object;
    /// use gmkit_data::code_entry::{EntryTarget, EventType};
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// let target = EntryTarget::Event { object: obj, event: EventType::Alarm, subtype: 3 };
    /// let new = data.add_code_entry(&target).unwrap();
    /// assert_eq!(new.name, "gml_Object_obj_player_Alarm_3");
    /// // The object's Alarm 3 event runs the new entry.
    /// let alarms = &data.asset(obj).unwrap().events[EventType::Alarm.number() as usize];
    /// assert_eq!(alarms[0].subtype, 3);
    /// assert_eq!(alarms[0].actions[0].code_id.index(), Some(new.entry));
    /// ```
    pub fn add_code_entry(&mut self, target: &EntryTarget) -> Result<NewEntry> {
        if self.code.is_none() {
            return Err(refuse(
                "the file",
                "code entries (CODE; a YYC game has none)",
                "none",
            ));
        }
        self.check_target(target)?;
        let name = self.code_entry_name(target)?;
        if self.find_code_entry(&name).is_some() {
            return Err(refuse(
                "CODE",
                "a name no code entry has",
                format!("\"{name}\""),
            ));
        }
        let name_ref = self.intern(&name);
        let args_ref = self.intern("arguments");
        let code = self.code.as_mut().expect("checked");
        let entry = code.entries.len();
        let code_id = AssetRef::at(
            u32::try_from(entry).map_err(|_| refuse("CODE", "fewer entries", entry.to_string()))?,
        );
        let has_locals = self
            .functions
            .as_ref()
            .is_some_and(|f| f.code_locals.is_some());
        code.entries.push(CodeEntry {
            name: name_ref,
            body: CodeBody::Instructions(Vec::new()),
            locals_count: u16::from(has_locals),
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        });
        if let Some(list) = self.functions.as_mut().and_then(|f| f.code_locals.as_mut()) {
            let index = if self.version.at_least(2, 3) {
                args_ref.0
            } else {
                0
            };
            list.push(CodeLocals {
                code_name: name_ref,
                locals: vec![Local {
                    index,
                    name: args_ref,
                }],
            });
        }
        match target {
            EntryTarget::Script { name } => {
                let sname = self.intern(name);
                self.add_asset(Script {
                    name: sname,
                    code_id,
                    constructor: false,
                })?;
                if self.version.at_least(2, 3)
                    && let Some(g) = self.global_init.as_mut()
                {
                    g.code_ids.push(code_id);
                }
            }
            EntryTarget::Event {
                object,
                event,
                subtype,
            } => {
                let action = self.code_action(entry)?;
                let gms2 = self.version.is_gms2();
                let o = self.asset_mut(*object).expect("checked");
                let list = &mut o.events[event.number() as usize];
                // GMS1 stores them in descending subtype order; GMS2 in the order of the
                // project's event list, where the IDE appends a new event.
                let at = if gms2 {
                    list.len()
                } else {
                    list.iter()
                        .position(|e| e.subtype < *subtype)
                        .unwrap_or(list.len())
                };
                list.insert(
                    at,
                    Event {
                        subtype: *subtype,
                        actions: vec![action],
                    },
                );
            }
            EntryTarget::RoomCreation { room } => {
                self.asset_mut(*room).expect("checked").creation_code = code_id;
            }
            EntryTarget::InstanceCreation { room, instance } => {
                self.asset_mut(*room).expect("checked").instances[*instance].creation_code =
                    code_id;
            }
        }
        Ok(NewEntry { entry, name })
    }

    /// Appends a child entry (a 2.3+ function defined in root entry `root`) named `name`
    /// (`gml_Script_f`), starting `offset` bytes into the root's instructions, with its
    /// argument and local counts; a function of a global script (`script_function`) also gets
    /// its SCPT entry, with the constructor flag. Returns the child's index.
    ///
    /// ```
    /// use gmkit_data::code_entry::EntryTarget;
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// let target = EntryTarget::Event {
    ///     object: obj,
    ///     event: gmkit_data::code_entry::EventType::Create,
    ///     subtype: 0,
    /// };
    /// let root = data.add_code_entry(&target).unwrap().entry;
    /// // `function jump(h) { ... }` inside the Create event: one argument, no locals.
    /// let name = "gml_Script_jump_gml_Object_obj_player_Create_0";
    /// let child = data.add_child_entry(root, name, 0, 1, 0, None).unwrap();
    /// assert_eq!(data.find_code_entry(name), Some(child));
    /// assert!(data.add_child_entry(child, "gml_Script_g", 0, 0, 0, None).is_err(), "a child's child");
    /// ```
    pub fn add_child_entry(
        &mut self,
        root: usize,
        name: &str,
        offset: u32,
        arguments: u16,
        locals: u16,
        script_function: Option<bool>,
    ) -> Result<usize> {
        let name_ref = self.intern(name);
        let Some(code) = self.code.as_mut() else {
            return Err(refuse("the file", "code entries (CODE)", "none"));
        };
        if !code.entries.get(root).is_some_and(|e| e.body.is_root()) {
            return Err(refuse(
                "the new function",
                "a root code entry",
                format!("entry #{root}"),
            ));
        }
        let entry = code.entries.len();
        let parent =
            u32::try_from(root).map_err(|_| refuse("CODE", "fewer entries", root.to_string()))?;
        code.entries.push(CodeEntry {
            name: name_ref,
            body: CodeBody::Shared { parent },
            locals_count: locals,
            arguments_count: arguments,
            arguments_flag: false,
            execution_offset: offset,
        });
        if let Some(constructor) = script_function {
            let code_id = AssetRef::at(
                u32::try_from(entry)
                    .map_err(|_| refuse("CODE", "fewer entries", entry.to_string()))?,
            );
            self.add_asset(Script {
                name: name_ref,
                code_id,
                constructor,
            })?;
        }
        Ok(entry)
    }

    /// Reads a code entry name as GameMaker names entries (see the module's table) into what
    /// the entry would belong to; the error says which names are accepted.
    ///
    /// ```
    /// use gmkit_data::chunks::object::Object;
    /// use gmkit_data::code_entry::{EntryTarget, EventType};
    /// let mut data = gmkit_data::sample();
    /// data.objects.get_or_insert_with(Default::default);
    /// data.code.get_or_insert_with(Default::default);
    /// let obj = data.add_object("obj_player").unwrap();
    /// assert_eq!(
    ///     data.parse_entry_name("gml_Object_obj_player_Draw_64").unwrap(),
    ///     EntryTarget::Event { object: obj, event: EventType::Draw, subtype: 64 },
    /// );
    /// assert!(data.parse_entry_name("gml_Object_obj_nobody_Draw_0").is_err());
    /// ```
    pub fn parse_entry_name(&self, name: &str) -> std::result::Result<EntryTarget, String> {
        let accepted = if self.version.at_least(2, 3) {
            "gml_GlobalScript_SCRIPT, gml_Object_OBJECT_EVENT_N (EVENT: Create, Destroy, Alarm, Step, Collision, Keyboard, Mouse, Other, Draw, KeyPress, KeyRelease, CleanUp, Gesture; N: a number, an object name for Collision), gml_Room_ROOM_Create"
        } else if self.version.is_gms2() {
            "gml_Script_SCRIPT, gml_Object_OBJECT_EVENT_N (EVENT: Create, Destroy, Alarm, Step, Collision, Keyboard, Mouse, Other, Draw, KeyPress, KeyRelease, CleanUp, Gesture; N: a number, an object name or GUID for Collision), gml_Room_ROOM_Create"
        } else {
            "gml_Script_SCRIPT, gml_Object_OBJECT_EVENT_N (EVENT: Create, Destroy, Alarm, Step, Collision, Keyboard, Mouse, Other, Draw, KeyPress, KeyRelease, Trigger, CleanUp; N: a number), gml_Room_ROOM_Create"
        };
        let fail = |why: &str| {
            Err(format!(
                "expected a new code entry named {accepted}; found `{}`{why}",
                crate::text::one_line(name, 80)
            ))
        };
        let script_prefix = if self.version.at_least(2, 3) {
            "gml_GlobalScript_"
        } else {
            "gml_Script_"
        };
        if let Some(s) = name.strip_prefix(script_prefix) {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return fail(" (a script name is letters, digits and _)");
            }
            return Ok(EntryTarget::Script {
                name: s.to_string(),
            });
        }
        if let Some(rest) = name.strip_prefix("gml_Room_")
            && let Some(room) = rest.strip_suffix("_Create")
        {
            return match self.find_asset::<Room>(room) {
                Some(room) => Ok(EntryTarget::RoomCreation { room }),
                None => fail(&format!(
                    " (no room is named `{}`)",
                    crate::text::one_line(room, 60)
                )),
            };
        }
        if let Some(rest) = name.strip_prefix("gml_Object_") {
            // Object names may hold `_`: try every object whose name starts the rest.
            let objects = self
                .objects
                .as_ref()
                .map(|o| o.objects.as_slice())
                .unwrap_or(&[]);
            let mut best: Option<(usize, EntryTarget)> = None;
            for (i, o) in objects.iter().enumerate() {
                let Some(o) = o else { continue };
                let oname = self.text(o.name);
                let Some(tail) = rest
                    .strip_prefix(oname.as_str())
                    .and_then(|t| t.strip_prefix('_'))
                else {
                    continue;
                };
                let Some((ev, sub)) = tail.split_once('_') else {
                    continue;
                };
                let Some(event) = EventType::from_name(ev) else {
                    continue;
                };
                let subtype = match sub.parse::<u32>() {
                    Ok(n) if !(event == EventType::Collision && self.version.is_gms2()) => Some(n),
                    _ if event == EventType::Collision => self.collision_target(sub),
                    _ => None,
                };
                let Some(subtype) = subtype else { continue };
                if best.as_ref().is_none_or(|b| oname.len() > b.0) {
                    best = Some((
                        oname.len(),
                        EntryTarget::Event {
                            object: Id::new(i as u32),
                            event,
                            subtype,
                        },
                    ));
                }
            }
            return match best {
                Some((_, t)) => Ok(t),
                None => fail(" (no object of the file and event name match it)"),
            };
        }
        fail("")
    }

    /// The object a collision entry's suffix names: an object name, or (2.0–2.2) the GUID an
    /// existing collision entry uses for it.
    fn collision_target(&self, sub: &str) -> Option<u32> {
        if let Some(id) = self.find_asset::<Object>(sub) {
            return Some(id.index() as u32);
        }
        let n = self.objects.as_ref()?.objects.len();
        (0..n as u32).find(|&i| self.collision_guid(i).as_deref() == Some(sub))
    }
}
