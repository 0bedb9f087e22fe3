//! GMS 1.x projects: `NAME.project.gmx` lists the assets; objects are
//! `objects/NAME.object.gmx` XML whose events hold "execute code" actions (the GML inside
//! `<string>`), scripts are `scripts/NAME.gml` (a file may hold several `#define` scripts),
//! rooms hold their creation code and their instances' creation code as XML text, and
//! extensions may carry GML files of `#define` scripts.

use super::{
    CodeUnit, Format, Project, ProjectContext, ProjectError, ProjectFolder, event_name,
    split_defines,
};
use std::path::Path;

/// The "execute code" action (library 1, action 603) and the comment action (605).
const ACTION_CODE: &str = "603";
const ACTION_COMMENT: &str = "605";

/// Reads a `.project.gmx` project.
pub fn read(
    dir: &ProjectFolder,
    project: &Path,
    cx: &ProjectContext,
) -> Result<Project, ProjectError> {
    let text = dir.read_text(project)?;
    let mut out = Project {
        format: Some(Format::Gmx),
        ..Project::default()
    };
    let doc = match roxmltree::Document::parse(&text) {
        Ok(d) => d,
        Err(e) => {
            out.problems
                .push(format!("{}: not readable XML: {e}", project.display()));
            return Ok(out);
        }
    };
    let list = |tag: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter_map(|n| n.text())
            .map(|t| t.trim().replace('\\', "/"))
            .filter(|t| !t.is_empty())
            .collect()
    };
    for c in doc.descendants().filter(|n| n.has_tag_name("constant")) {
        if let Some(name) = c.attribute("name") {
            out.constants
                .push((name.to_string(), c.text().unwrap_or("").to_string()));
        }
    }
    for s in list("script") {
        let path = dir.join(&s);
        let stem = Path::new(&s)
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        read_scripts(dir, &path, &stem, &mut out);
    }
    for ext in list("extension") {
        read_extension(dir, &ext, &mut out);
    }
    for o in list("object") {
        let name = Path::new(&o)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let path = dir.join(format!("{o}.object.gmx"));
        match dir.read_text(&path) {
            Ok(t) => read_object(&name, &path, &t, cx, &mut out),
            Err(e) => out.problems.push(e.to_string()),
        }
    }
    for r in list("room") {
        let name = Path::new(&r)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let path = dir.join(format!("{r}.room.gmx"));
        match dir.read_text(&path) {
            Ok(t) => read_room(&name, &path, &t, cx, &mut out),
            Err(e) => out.problems.push(e.to_string()),
        }
    }
    Ok(out)
}

/// Line number (1-based) of byte offset `at` in `text`.
/// Reads a GML file of `#define` scripts (a project script, or an extension's GML file) into
/// `gml_Script_<name>` units; text before the first `#define` is the script `first` (unnamed and
/// skipped when `first` is empty, as in extension files).
fn read_scripts(dir: &ProjectFolder, path: &Path, first: &str, out: &mut Project) {
    match dir.read_text(path) {
        Ok(t) => {
            for (name, line, body) in split_defines(&t, first) {
                if name.is_empty() {
                    continue;
                }
                out.units.push(CodeUnit {
                    entry: format!("gml_Script_{name}"),
                    file: path.to_path_buf(),
                    line,
                    text: body,
                    unsupported: None,
                });
            }
        }
        Err(e) => out.problems.push(e.to_string()),
    }
}

fn line_of(text: &str, at: usize) -> u32 {
    1 + text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
}

fn read_extension(dir: &ProjectFolder, ext: &str, out: &mut Project) {
    let path = dir.join(format!("{ext}.extension.gmx"));
    let Ok(text) = dir.read_text(&path) else {
        out.problems
            .push(format!("{}: extension file not found", path.display()));
        return;
    };
    let Ok(doc) = roxmltree::Document::parse(&text) else {
        out.problems
            .push(format!("{}: not readable XML", path.display()));
        return;
    };
    for f in doc.descendants().filter(|n| n.has_tag_name("file")) {
        let Some(fname) = f
            .children()
            .find(|c| c.has_tag_name("filename"))
            .and_then(|c| c.text())
        else {
            continue;
        };
        if !fname.to_ascii_lowercase().ends_with(".gml") {
            continue;
        }
        for func in f.descendants().filter(|n| n.has_tag_name("function")) {
            let field = |tag: &str| {
                func.children()
                    .find(|c| c.has_tag_name(tag))
                    .and_then(|c| c.text())
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let (name, external) = (field("name"), field("externalName"));
            if !name.is_empty() && !external.is_empty() && name != external {
                out.function_aliases.push((name, external));
            }
        }
        let gml = dir.join(ext).join(fname);
        read_scripts(dir, &gml, "", out);
    }
}

fn read_object(name: &str, path: &Path, text: &str, cx: &ProjectContext, out: &mut Project) {
    let doc = match roxmltree::Document::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.problems
                .push(format!("{}: not readable XML: {e}", path.display()));
            return;
        }
    };
    for ev in doc.descendants().filter(|n| n.has_tag_name("event")) {
        let ty: u32 = ev
            .attribute("eventtype")
            .and_then(|v| v.parse().ok())
            .unwrap_or(u32::MAX);
        let Some(ev_name) = event_name(ty) else {
            out.problems.push(format!(
                "{}: event type {ty} has no known name",
                path.display()
            ));
            continue;
        };
        let sub = if ty == 4 {
            let other = ev.attribute("ename").unwrap_or("");
            match cx.object_index(other) {
                Some(i) => i.to_string(),
                None => other.to_string(),
            }
        } else {
            ev.attribute("enumb").unwrap_or("0").to_string()
        };
        let mut code = String::new();
        let mut unsupported = None;
        let mut first_line = None;
        for a in ev.children().filter(|c| c.has_tag_name("action")) {
            let field = |tag: &str| {
                a.children()
                    .find(|c| c.has_tag_name(tag))
                    .and_then(|c| c.text())
                    .unwrap_or("")
            };
            match (field("libid"), field("id")) {
                ("1", ACTION_CODE) => {
                    let Some(s) = a
                        .descendants()
                        .find(|c| c.has_tag_name("string"))
                        .filter(|_| true)
                    else {
                        continue;
                    };
                    let body = s.text().unwrap_or("");
                    let at = line_of(text, s.range().start);
                    let first = *first_line.get_or_insert(at);
                    let who = field("whoName");
                    if !code.is_empty() && !code.ends_with('\n') {
                        code.push('\n');
                    }
                    // Blank lines up to the action's own line: errors then point into the
                    // object file (blank lines compile to nothing).
                    let mut lines = 1 + code.matches('\n').count() as u32;
                    while lines < at.saturating_sub(first) + 1 {
                        code.push('\n');
                        lines += 1;
                    }
                    // Each action is compiled on its own: a comment left open ends with it.
                    let closed;
                    let body = if ends_in_block_comment(body) {
                        closed = format!("{body}*/");
                        closed.as_str()
                    } else {
                        body
                    };
                    if who == "self" || who.is_empty() {
                        code.push_str(body);
                    } else {
                        code.push_str(&format!("with ({who}) {{ {body}\n}}\n"));
                    }
                }
                ("1", ACTION_COMMENT) => {}
                // A drag-and-drop action that calls its function with its arguments as
                // written (`action_set_motion(0, 0)`): kind 0 ("normal"), exetype 1 (function).
                (_, _)
                    if field("kind") == "0"
                        && field("exetype") == "1"
                        && field("isquestion") == "0"
                        && field("relative") == "0"
                        && !field("functionname").is_empty()
                        && let Some(args) = dnd_arguments(&a) =>
                {
                    if !code.is_empty() && !code.ends_with('\n') {
                        code.push('\n');
                    }
                    let call = format!("{}({});\n", field("functionname"), args.join(", "));
                    let who = field("whoName");
                    if who == "self" || who.is_empty() {
                        code.push_str(&call);
                    } else {
                        code.push_str(&format!("with ({who}) {{ {call}}}\n"));
                    }
                }
                (lib, id) => {
                    let f = field("functionname");
                    unsupported
                        .get_or_insert_with(|| format!("drag-and-drop action {lib}/{id} ({f})"));
                }
            }
        }
        out.units.push(CodeUnit {
            entry: format!("gml_Object_{name}_{ev_name}_{sub}"),
            file: path.to_path_buf(),
            line: first_line.unwrap_or(1),
            text: code,
            unsupported,
        });
    }
}

fn read_room(name: &str, path: &Path, text: &str, cx: &ProjectContext, out: &mut Project) {
    let doc = match roxmltree::Document::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.problems
                .push(format!("{}: not readable XML: {e}", path.display()));
            return;
        }
    };
    let root = doc.root_element();
    if let Some(c) = root.children().find(|c| c.has_tag_name("code"))
        && let Some(t) = c.text().filter(|t| !t.trim().is_empty())
    {
        out.units.push(CodeUnit {
            entry: format!("gml_Room_{name}_Create"),
            file: path.to_path_buf(),
            line: line_of(text, c.range().start),
            text: t.to_string(),
            unsupported: None,
        });
    }
    let ids = cx.instance_ids(name);
    let all: Vec<String> = root
        .descendants()
        .filter(|n| n.has_tag_name("instance"))
        .map(|n| n.attribute("name").unwrap_or("").to_string())
        .collect();
    if ids.len() == all.len() {
        out.instances
            .extend(all.into_iter().zip(ids).filter(|(n, _)| !n.is_empty()));
    }
    let mut names = cx.instance_code_entries(name, false).into_iter();
    for inst in root
        .descendants()
        .filter(|n| n.has_tag_name("instance"))
        .filter(|n| n.attribute("code").is_some_and(|c| !c.trim().is_empty()))
    {
        let code = inst.attribute("code").unwrap_or("");
        let inst_name = inst.attribute("name").unwrap_or("?");
        out.units.push(CodeUnit {
            entry: names
                .next()
                .unwrap_or_else(|| format!("gml_RoomCC_{name}_{inst_name}_Create")),
            file: path.to_path_buf(),
            line: line_of(text, inst.range().start),
            text: code.to_string(),
            unsupported: None,
        });
    }
}

/// Whether GML text ends inside a `/* */` comment (strings and line comments respected).
fn ends_in_block_comment(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return true;
                    }
                    if b[i] == b'*' && b[i + 1] == b'/' {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += 1;
                }
                i += 1;
                continue;
            }
            _ => i += 1,
        }
    }
    false
}

/// The arguments of a drag-and-drop function action as GML: expressions (kind 0), menus and
/// booleans (3, 4) as written, strings (1) quoted; `None` for other kinds.
fn dnd_arguments(action: &roxmltree::Node) -> Option<Vec<String>> {
    action
        .descendants()
        .filter(|n| n.has_tag_name("argument"))
        .map(|arg| {
            let field = |tag: &str| {
                arg.children()
                    .find(|c| c.has_tag_name(tag))
                    .and_then(|c| c.text())
                    .unwrap_or("")
            };
            let value = field("string");
            match field("kind") {
                "0" | "3" | "4" => Some(value.to_string()),
                "1" => Some(format!("\"{value}\"")),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::ends_in_block_comment;

    #[test]
    fn open_comments_are_found() {
        assert!(ends_in_block_comment("a = 1; /* b"));
        assert!(!ends_in_block_comment("a = 1; /* b */"));
        assert!(!ends_in_block_comment("a = \"/*\"; // /*"));
    }
}
