//! Assets by name: objects, scripts, rooms and timelines as folders holding their code, sounds
//! as files named after the sound with their audio beside them.
//!
//! - `objects/obj_player/object.json`: the object's properties; its events are a list of
//!   records named as GameMaker's project names their files (`{"event": "Create_0"}`,
//!   `{"event": "Collision_obj_wall"}`, `{"event": "Draw_64"}`); an event whose only action is
//!   the file's "execute code" action (the shape in `objects/_chunk.json`, `code_action`) is
//!   reduced to its name, its code being `objects/obj_player/Create_0.gml` (+ `.asm`); any other
//!   event keeps its action records (`"actions": [...]`).
//! - `scripts/scr_move/script.json` with the script's code `scr_move.gml` (+ `.asm`);
//!   `rooms/room0/room.json` with `RoomCreationCode.gml` and
//!   `InstanceCreationCode_<instance id>.gml`; `timelines/tl/timeline.json` with
//!   `moment_<step>.gml`.
//! - `sprites/spr_player/sprite.json` with its frames `0.png`, `1.png`, ... and masks;
//!   `backgrounds/bg_sky/background.json` with `bg_sky.png`; `fonts/fnt_main/font.json` with
//!   its glyph sheet `fnt_main.png` (see [`crate::frames`]).
//! - `sounds/snd_jump.json` with the sound's embedded audio `sounds/snd_jump.wav` (its own file
//!   type).
//!
//! The order of the elements (their indices, which the game uses) is the `order` list of the
//! chunk's `_chunk.json`: folder (or file) names, `null` for a stripped element. A folder name is
//! the asset's name when that is a safe, unique (case-insensitively) file name, else
//! `NNNN_name`. A folder not in the list is a new element, added after the listed ones in name
//! order.

use crate::error::{Error, Result};
use crate::layout::{CHUNK_REST, element_stem};
use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, CodeEntry};
use gmkit_data::chunks::object::Action;
use gmkit_data::code_entry::EventType;
use gmkit_data::serde_support::NameScope;
use gmkit_data::{AssetKind, AssetRef};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};

/// Chunks written as one folder per element: (model field, JSON file name in the folder).
pub const FOLDERS: &[(&str, &str)] = &[
    ("objects", "object.json"),
    ("scripts", "script.json"),
    ("rooms", "room.json"),
    ("timelines", "timeline.json"),
    ("sprites", "sprite.json"),
    ("backgrounds", "background.json"),
    ("fonts", "font.json"),
];
/// Chunks written as one JSON file per element named after it (`sounds/snd_jump.json`).
pub const FLAT: &[&str] = &["sounds"];
/// The key of a named chunk's `_chunk.json` listing its elements' folder or file names.
pub const ORDER: &str = "order";
/// The key of `objects/_chunk.json` holding the shape of a plain "execute code" action.
pub const CODE_ACTION: &str = "code_action";
/// The key of `objects/_chunk.json` holding the number of event types of every object (an
/// object with another number says so in its own `event_types`).
pub const EVENT_TYPES: &str = "event_types";
/// The most event types an object may list (GameMaker has 15).
pub const EVENT_TYPES_MAX: u64 = 16;
/// A room's creation code file stem.
pub const ROOM_CODE: &str = "RoomCreationCode";
/// An instance's creation code file stem, before the instance id.
pub const INSTANCE_CODE: &str = "InstanceCreationCode_";

/// The JSON file name of an element of `field` when it is a folder chunk.
pub fn folder_file(field: &str) -> Option<&'static str> {
    FOLDERS.iter().find(|f| f.0 == field).map(|f| f.1)
}

/// Whether `field` is written by name (folders or flat files).
pub fn by_name(field: &str) -> bool {
    folder_file(field).is_some() || FLAT.contains(&field)
}

/// The path (relative to the data file's prefix) of element `dir` of `field`.
pub fn element_path(field: &str, dir: &str) -> String {
    match folder_file(field) {
        Some(f) => format!("{field}/{dir}/{f}"),
        None => format!("{field}/{dir}.json"),
    }
}

/// What unpack puts where: folder names, code files, event names, sound audio.
#[derive(Default)]
pub(crate) struct Plan {
    /// Per named chunk: the folder (or file) name of each element (`None`: stripped).
    pub dirs: HashMap<&'static str, Vec<Option<String>>>,
    /// Code entry index → its file stem (`objects/obj_player/Create_0`).
    pub code: HashMap<usize, String>,
    /// Per object: its event records (in type order, then stored order).
    pub events: Vec<Vec<EventPlan>>,
    /// The plain "execute code" action (its `code_id` is replaced per event).
    pub code_action: Option<Action>,
    /// Audio entry index → the sound's file stem (`sounds/snd_jump`).
    pub audio: HashMap<usize, String>,
}

/// One event of an object as unpack writes it.
pub(crate) struct EventPlan {
    pub name: String,
    /// Its subtype, written when the name alone does not give it back.
    pub subtype: Option<u32>,
    /// The event is reduced to its code file.
    pub reduced: bool,
}

fn name_text(file: &DataFile, r: gmkit_data::StringRef) -> Option<String> {
    file.strings
        .as_ref()
        .and_then(|s| s.get(r))
        .map(|s| String::from_utf8_lossy(s.as_bytes()).into_owned())
}

fn safe_name(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 80
        && !n.starts_with('.')
        && !n.eq_ignore_ascii_case("_chunk")
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Unique folder names for elements named `names`.
fn dir_names(names: &[Option<Option<String>>]) -> Vec<Option<String>> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut count: HashMap<String, usize> = HashMap::new();
    for n in names.iter().flatten().flatten() {
        *count.entry(n.to_ascii_lowercase()).or_default() += 1;
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let n = n.as_ref()?;
            let mut d = match n {
                Some(n) if safe_name(n) && count.get(&n.to_ascii_lowercase()) == Some(&1) => {
                    n.clone()
                }
                _ => element_stem(i, n.as_deref()),
            };
            let mut k = 1;
            while !taken.insert(d.to_ascii_lowercase()) {
                d = format!("{}~{k}", element_stem(i, n.as_deref()));
                k += 1;
            }
            Some(d)
        })
        .collect()
}

/// Whether `a` is `template` but for its code id.
fn is_plain(a: &Action, template: &Action) -> bool {
    let mut t = template.clone();
    t.code_id = a.code_id;
    *a == t
}

/// The `8_4_4_4_12` hex GUID at the end of a 2.0–2.2 collision entry name, with dashes.
fn guid_suffix(entry_name: &str) -> Option<String> {
    let tail = entry_name.get(entry_name.len().checked_sub(36)?..)?;
    let parts: Vec<&str> = tail.split('_').collect();
    let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    (lens == [8, 4, 4, 4, 12]
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_hexdigit())))
    .then(|| parts.join("-"))
}

/// The (type, subtype) an event name stands for; `objects` names the objects
/// ([`crate::names::objects`]).
pub(crate) fn parse_event(name: &str, objects: &NameScope) -> Option<(u32, u32)> {
    let (ev, sub) = name.split_once('_')?;
    let ty = EventType::from_name(ev)?;
    let subtype = if ty == EventType::Collision {
        match objects.lookup(AssetKind::Object, sub) {
            Some(i) => i,
            None => sub.parse().ok()?,
        }
    } else {
        sub.parse().ok()?
    };
    Some((ty.number(), subtype))
}

/// Plans the layout of the named assets of `file` (code placement needs the CODE chunk).
pub(crate) fn plan(file: &DataFile) -> Plan {
    let mut plan = Plan::default();
    let mut names_of = |field: &'static str, names: Vec<Option<Option<String>>>| {
        let d = dir_names(&names);
        plan.dirs.insert(field, d);
    };
    if let Some(c) = &file.objects {
        names_of(
            "objects",
            c.objects
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.scripts {
        names_of(
            "scripts",
            c.scripts
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.rooms {
        names_of(
            "rooms",
            c.rooms
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.timelines {
        names_of(
            "timelines",
            c.timelines
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.sprites {
        names_of(
            "sprites",
            c.sprites
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.backgrounds {
        names_of(
            "backgrounds",
            c.backgrounds
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.fonts {
        names_of(
            "fonts",
            c.fonts
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    if let Some(c) = &file.sounds {
        names_of(
            "sounds",
            c.sounds
                .iter()
                .map(|o| o.as_ref().map(|o| name_text(file, o.name)))
                .collect(),
        );
    }
    plan_sounds(file, &mut plan);
    plan_code(file, &mut plan);
    plan
}

fn plan_sounds(file: &DataFile, plan: &mut Plan) {
    let (Some(sounds), Some(audio)) = (&file.sounds, &file.audio) else {
        return;
    };
    use gmkit_media::audio::{SoundLocation, sound_location};
    let dirs = &plan.dirs["sounds"];
    let mut users: HashMap<usize, usize> = HashMap::new();
    for s in sounds.sounds.iter().flatten() {
        if let SoundLocation::Builtin { index } = sound_location(file, s) {
            *users.entry(index).or_default() += 1;
        }
    }
    for (i, s) in sounds.sounds.iter().enumerate() {
        let (Some(s), Some(Some(dir))) = (s, dirs.get(i)) else {
            continue;
        };
        if let SoundLocation::Builtin { index } = sound_location(file, s)
            && users.get(&index) == Some(&1)
            && matches!(audio.entries.get(index), Some(Some(_)))
        {
            plan.audio.insert(index, format!("sounds/{dir}"));
        }
    }
}

fn plan_code(file: &DataFile, plan: &mut Plan) {
    let no_entries = Vec::new();
    let entries = file.code.as_ref().map_or(&no_entries, |c| &c.entries);
    let root = |id: AssetRef<CodeEntry>| -> Option<usize> {
        let i = id.index()?;
        entries
            .get(i)
            .filter(|e| !matches!(e.body, CodeBody::Shared { .. }))
            .map(|_| i)
    };
    let mut claimed: HashSet<usize> = HashSet::new();
    let mut stems: HashSet<String> = HashSet::new();
    let mut claim = |plan: &mut Plan, id: AssetRef<CodeEntry>, stem: String| -> bool {
        let Some(i) = root(id) else { return false };
        if claimed.contains(&i) || !stems.insert(stem.to_ascii_lowercase()) {
            return false;
        }
        claimed.insert(i);
        plan.code.insert(i, stem);
        true
    };
    if let (Some(scripts), Some(dirs)) = (&file.scripts, plan.dirs.get("scripts").cloned()) {
        for (s, d) in scripts.scripts.iter().zip(&dirs) {
            if let (Some(s), Some(d)) = (s, d) {
                claim(plan, s.code_id, format!("scripts/{d}/{d}"));
            }
        }
    }
    if let (Some(objects), Some(dirs)) = (&file.objects, plan.dirs.get("objects").cloned()) {
        // Object names for collision events: unique names only.
        let by_name = crate::names::objects(
            objects
                .objects
                .iter()
                .map(|o| o.as_ref().and_then(|o| name_text(file, o.name))),
        );
        plan.code_action = objects
            .objects
            .iter()
            .flatten()
            .flat_map(|o| o.events.iter().flatten())
            .flat_map(|e| e.actions.iter())
            .find(|a| a.exe_type == 2 && root(a.code_id).is_some())
            .cloned();
        for (o, d) in objects.objects.iter().zip(&dirs) {
            let (Some(o), Some(d)) = (o, d) else {
                plan.events.push(Vec::new());
                continue;
            };
            let mut list = Vec::new();
            for (ty, events) in o.events.iter().enumerate() {
                for e in events {
                    let et = EventType::from_number(ty as u32);
                    let tname = et.map_or_else(|| format!("Event{ty}"), |t| t.name().to_owned());
                    let single = match e.actions.as_slice() {
                        [a] if plan.code_action.as_ref().is_some_and(|t| is_plain(a, t)) => {
                            Some(a.code_id)
                        }
                        _ => None,
                    };
                    let entry_name = single
                        .and_then(|c| c.index())
                        .and_then(|c| entries.get(c))
                        .and_then(|c| name_text(file, c.name));
                    let sub = if et == Some(EventType::Collision) {
                        let guid = entry_name.as_deref().and_then(guid_suffix);
                        let target = objects
                            .objects
                            .get(e.subtype as usize)
                            .and_then(|t| t.as_ref())
                            .and_then(|t| name_text(file, t.name))
                            .filter(|n| {
                                by_name.lookup(AssetKind::Object, n).is_some() && safe_name(n)
                            });
                        target.or(guid).unwrap_or_else(|| e.subtype.to_string())
                    } else {
                        e.subtype.to_string()
                    };
                    let name = format!("{tname}_{sub}");
                    let subtype = (parse_event(&name, &by_name) != Some((ty as u32, e.subtype)))
                        .then_some(e.subtype);
                    let reduced = match single {
                        Some(c) => claim(plan, c, format!("objects/{d}/{name}")),
                        None => false,
                    };
                    list.push(EventPlan {
                        name,
                        subtype,
                        reduced,
                    });
                }
            }
            plan.events.push(list);
        }
    }
    if let (Some(rooms), Some(dirs)) = (&file.rooms, plan.dirs.get("rooms").cloned()) {
        for (r, d) in rooms.rooms.iter().zip(&dirs) {
            let (Some(r), Some(d)) = (r, d) else { continue };
            claim(plan, r.creation_code, format!("rooms/{d}/{ROOM_CODE}"));
            for inst in &r.instances {
                claim(
                    plan,
                    inst.creation_code,
                    format!("rooms/{d}/{INSTANCE_CODE}{}", inst.instance_id),
                );
                if let Some(p) = inst.pre_create_code {
                    claim(
                        plan,
                        p,
                        format!("rooms/{d}/PreCreateCode_{}", inst.instance_id),
                    );
                }
            }
        }
    }
    if let (Some(tls), Some(dirs)) = (&file.timelines, plan.dirs.get("timelines").cloned()) {
        for (t, d) in tls.timelines.iter().zip(&dirs) {
            let (Some(t), Some(d)) = (t, d) else { continue };
            for m in &t.moments {
                for a in &m.actions {
                    if a.exe_type == 2 {
                        claim(plan, a.code_id, format!("timelines/{d}/moment_{}", m.step));
                    }
                }
            }
        }
    }
}

/// Rewrites an object's serialized `events` (lists per type) as named records.
pub(crate) fn events_to_names(item: &mut Value, events: &[EventPlan], types_default: usize) {
    let Some(Value::Array(types)) = item.get_mut("events").map(Value::take) else {
        return;
    };
    let n_types = types.len();
    let mut plans = events.iter();
    let mut out = Vec::new();
    for t in types {
        let Value::Array(list) = t else { continue };
        for e in list {
            let Some(p) = plans.next() else { break };
            let mut rec = Map::new();
            rec.insert("event".into(), Value::String(p.name.clone()));
            if let Some(s) = p.subtype {
                rec.insert("subtype".into(), json!(s));
            }
            if !p.reduced {
                rec.insert(
                    "actions".into(),
                    e.get("actions").cloned().unwrap_or(Value::Null),
                );
            }
            out.push(Value::Object(rec));
        }
    }
    item["events"] = Value::Array(out);
    if n_types != types_default {
        item[EVENT_TYPES] = json!(n_types);
    }
}

/// Rebuilds an object's `events` (lists per type) from its named records. `code` maps code
/// file stems (`objects/obj_player/Create_0`) to entry indices; `dir` is the object's folder
/// (`objects/obj_player`).
pub(crate) fn events_from_names(
    path: &str,
    item: &mut Value,
    dir: &str,
    objects: &NameScope,
    code_action: Option<&Value>,
    code: &HashMap<String, usize>,
    types_default: usize,
) -> Result<()> {
    let Some(obj) = item.as_object_mut() else {
        return Err(Error::new(path, "", "expected an object"));
    };
    let n_types = match obj.remove(EVENT_TYPES) {
        None => types_default,
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= EVENT_TYPES_MAX)
            .ok_or_else(|| {
                Error::new(
                    path,
                    EVENT_TYPES,
                    format!(
                        "expected a number of event types up to 16, found {}",
                        crate::one_line(&v.to_string(), 40)
                    ),
                )
            })? as usize,
    };
    let records = match obj.remove("events") {
        Some(Value::Array(a)) => a,
        None => Vec::new(),
        Some(other) => {
            return Err(Error::new(
                path,
                "events",
                format!(
                    "expected a list of events ({{\"event\": \"Create_0\"}}, ...), found {}",
                    crate::one_line(&other.to_string(), 40)
                ),
            ));
        }
    };
    let mut types: Vec<Vec<Value>> = vec![Vec::new(); n_types];
    for (k, rec) in records.into_iter().enumerate() {
        let field = format!("events[{k}]");
        let Value::Object(mut rec) = rec else {
            return Err(Error::new(path, field, "expected {\"event\": NAME, ...}"));
        };
        let name = match rec.remove("event") {
            Some(Value::String(s)) => s,
            other => {
                return Err(Error::new(
                    path,
                    format!("{field}.event"),
                    format!(
                        "expected an event name as GameMaker names it (Create_0, Step_1, Collision_obj_wall, ...), found {}",
                        other.map_or("nothing".into(), |v| crate::one_line(&v.to_string(), 40))
                    ),
                ));
            }
        };
        let parsed = parse_event(&name, objects);
        let (ty, subtype) = match (rec.remove("subtype"), parsed) {
            (Some(s), p) => {
                let s = s
                    .as_u64()
                    .and_then(|s| u32::try_from(s).ok())
                    .ok_or_else(|| {
                        Error::new(path, format!("{field}.subtype"), "expected a number")
                    })?;
                let ty = p.map(|p| p.0).or_else(|| {
                    let t = name.split('_').next()?;
                    EventType::from_name(t)
                        .map(EventType::number)
                        .or_else(|| t.strip_prefix("Event")?.parse().ok())
                });
                (ty, s)
            }
            (None, Some((t, s))) => (Some(t), s),
            (None, None) => (None, 0),
        };
        let ty = ty.ok_or_else(|| {
            Error::new(
                path,
                format!("{field}.event"),
                format!(
                    "expected an event name as GameMaker names it (Create_0, Step_1, Alarm_3, Collision_obj_wall, Draw_64, Other_10, KeyPress_32, ...), found {}",
                    crate::quote(&name)
                ),
            )
        })? as usize;
        if ty >= n_types {
            return Err(Error::new(
                path,
                format!("{field}.event"),
                format!(
                    "expected an event type below {n_types} (the object's event_types), found {}",
                    crate::quote(&name)
                ),
            ));
        }
        let actions = match rec.remove("actions") {
            Some(a) => a,
            None => {
                let stem = format!("{dir}/{name}");
                let Some(&entry) = code.get(&stem) else {
                    return Err(Error::new(
                        path,
                        field,
                        format!(
                            "expected the event's code {stem}.gml (or .asm) listed in code/{CHUNK_REST}, or its \"actions\""
                        ),
                    ));
                };
                let Some(mut a) = code_action.cloned() else {
                    return Err(Error::new(
                        path,
                        field,
                        format!("expected objects/{CHUNK_REST} to hold {CODE_ACTION}"),
                    ));
                };
                a["code_id"] = json!(entry);
                Value::Array(vec![a])
            }
        };
        if let Some(k) = rec.keys().next() {
            return Err(Error::new(
                path,
                format!("{field}.{k}"),
                "expected only event, subtype and actions here",
            ));
        }
        types[ty].push(json!({"subtype": subtype, "actions": actions}));
    }
    obj.insert(
        "events".into(),
        Value::Array(types.into_iter().map(Value::Array).collect()),
    );
    Ok(())
}

/// Element `i` of chunk `field` written by name: `FIELD/NAME/KIND.json` (objects get their
/// events by name); its folder name (or `null` for a stripped element) goes to `order`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn unpack_element(
    file: &DataFile,
    plan: &Plan,
    field: &str,
    i: usize,
    mut item: Value,
    prefix: &str,
    docs: &mut Vec<(String, Value)>,
    order: &mut Vec<Value>,
) -> Result<()> {
    let dir = plan
        .dirs
        .get(field)
        .and_then(|d| d.get(i))
        .cloned()
        .flatten();
    match (&dir, item.is_null()) {
        (Some(d), false) => {
            if field == "objects"
                && let Some(ev) = plan.events.get(i)
            {
                events_to_names(&mut item, ev, events_default(file));
            }
            docs.push((format!("{prefix}{}", element_path(field, d)), item));
            order.push(Value::String(d.clone()));
        }
        (_, true) => order.push(Value::Null),
        (None, false) => {
            return Err(Error::new(
                format!("{prefix}{field}"),
                format!("[{i}]"),
                "cannot be written: no folder name was planned for this element",
            ));
        }
    }
    Ok(())
}

/// The number of event-type lists of the file's objects (the first object's).
fn events_default(file: &DataFile) -> usize {
    file.objects
        .as_ref()
        .and_then(|o| o.objects.iter().flatten().next())
        .map_or(0, |o| o.events.len())
}

/// The other fields of chunk `field` written by name (`FIELD/_chunk.json`): the element
/// folders' `order`, and for objects the plain code action's shape and the event-type count.
pub(crate) fn finish_rest(
    file: &DataFile,
    scope: &std::sync::Arc<gmkit_data::serde_support::StringScope>,
    plan: &Plan,
    field: &str,
    rest: &mut Map<String, Value>,
    order: Vec<Value>,
) -> Result<()> {
    if field == "objects" {
        if let Some(a) = &plan.code_action {
            let v = scope
                .enter(|| serde_json::to_value(a))
                .map_err(|e| Error::new(field, CODE_ACTION, format!("cannot be written: {e}")))?;
            rest.insert(CODE_ACTION.into(), v);
        }
        rest.insert(EVENT_TYPES.into(), json!(events_default(file)));
    }
    rest.insert(ORDER.into(), Value::Array(order));
    Ok(())
}
