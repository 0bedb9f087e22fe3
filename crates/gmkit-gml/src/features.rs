//! Which code-generation features a file's GameMaker version has: each difference of emitted
//! code is one named predicate, stated once (spec `gml-bytecode.md` §1).

use gmkit_data::Version;

/// The code-generation features of one version.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    version: Version,
    /// Evidence from the file's code: `true`/`false` pushed as typed booleans.
    typed_bool_evidence: bool,
    /// Evidence from the file's code: array owners are set (`setowner.e`).
    copy_on_write_evidence: bool,
    /// Evidence from the file's code: `pushbltn.v self.x` (instance -1).
    builtin_self_evidence: bool,
    /// Evidence from the file's code: a function ends `setstatic.e / exit.i` with no static
    /// initializer before.
    end_setstatic_evidence: bool,
    /// Whether the file's code may reference functions with `pushref` (see
    /// [`Features::with_function_refs`]).
    function_refs_evidence: bool,
    /// Whether the file's code calls `@@Global@@`.
    global_call_evidence: bool,
}

/// Version families used when reporting (bytecode ≤ 14, 15–16, 17 before 2.3, 2.3–2022,
/// 2023+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// GMS 1.x early (bytecode 13–14).
    Bc14,
    /// GMS 1.4 late and GMS 2.0–2.2.0 (bytecode 15–16).
    Bc15to16,
    /// Bytecode 17 before 2.3.
    Bc17Pre23,
    /// 2.3 to 2022.x.
    Gml23to2022,
    /// 2023 and later.
    Gml2023,
}

impl Family {
    /// A short label for reports.
    pub fn label(self) -> &'static str {
        match self {
            Family::Bc14 => "bc<=14",
            Family::Bc15to16 => "bc15-16",
            Family::Bc17Pre23 => "bc17<2.3",
            Family::Gml23to2022 => "2.3-2022",
            Family::Gml2023 => "2023+",
        }
    }
}

/// A piece of GML that only some GameMaker versions compile: what the compiler's version
/// gates ([`crate::compile::gates`]) refuse in text for an older game. Whether a version has
/// it is [`Features::has`], from the named predicates below; [`Construct::since`] is the
/// first version that has it, as an error message names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Construct {
    /// Array literals `[a, b]` (GMS2; a compile error in GMS 1.x, spec §7.3).
    ArrayLiteral,
    /// Function declarations and literals, `constructor`, `new`, `static`, `delete`,
    /// `try`/`catch`/`finally`, `throw`, struct literals `{}`, methods and calls of a value
    /// (`a.f()`, `a[0]()`), built-in functions used as values, arrays of arrays `a[i][j]`,
    /// verbatim strings `@"..."` (2.3.0, "GMLv2", spec §1).
    GmlV2,
    /// `??` and `??=` (2.3.7, spec §1 and §4.3).
    Nullish,
    /// Template strings `$"a{x}"` (2023.4 on the main branch, spec §6.5).
    TemplateString,
}

impl Construct {
    /// The first GameMaker version that compiles it, as an error message names it.
    pub fn since(self) -> &'static str {
        match self {
            Construct::ArrayLiteral => "GameMaker Studio 2",
            Construct::GmlV2 => "GameMaker 2.3",
            Construct::Nullish => "GameMaker 2.3.7",
            Construct::TemplateString => "GameMaker 2023.4 (not the 2022 LTS)",
        }
    }
}

impl Features {
    /// The features of `version`.
    pub fn new(version: Version) -> Self {
        Features {
            version,
            typed_bool_evidence: false,
            copy_on_write_evidence: !version.at_least_full(2022, 2, 0, 0),
            builtin_self_evidence: false,
            end_setstatic_evidence: false,
            function_refs_evidence: true,
            global_call_evidence: false,
        }
    }

    /// The features of `version`, with what the file's own code shows (spec §1: "evidence
    /// usable for detection"): `typed_bools` when a 0/1 constant is converted or stored as a
    /// boolean.
    pub fn with_evidence(version: Version, typed_bools: bool) -> Self {
        Features {
            version,
            typed_bool_evidence: typed_bools,
            copy_on_write_evidence: !version.at_least_full(2022, 2, 0, 0),
            builtin_self_evidence: false,
            end_setstatic_evidence: false,
            function_refs_evidence: true,
            global_call_evidence: false,
        }
    }

    /// The same features, raised to 2024.2 when the file's code encodes a variable of the
    /// game's own with instance -6 (`push.v builtin.hp`), which only 2024.2+ compilers emit:
    /// the file's layout can look older (nothing in its chunks changed since 2023.8), and the
    /// other 2024.2 code changes come with it.
    pub fn with_self_to_builtin(self, evidence: bool) -> Self {
        let mut version = self.version;
        if evidence && self.gml_v2() && !version.lts {
            version.raise(gmkit_data::FormatVersion::new(2024, 2, 0, 0));
        }
        Features { version, ..self }
    }

    /// The same features, raised to 2022.11 when the file's code ends a repeat loop without
    /// `conv.i.b`, which only 2022.11+ (non-LTS) compilers emit (wild: a game whose chunks
    /// look 2022.9).
    pub fn with_short_repeat_tail(self, evidence: bool) -> Self {
        let mut version = self.version;
        if evidence && self.gml_v2() && !version.lts {
            version.raise(gmkit_data::FormatVersion::new(2022, 11, 0, 0));
        }
        Features { version, ..self }
    }

    /// The same features, with whether the file's code sets array owners (spec §4.8: the
    /// copy-on-write option, always on in 2.3 – 2022.1, a game setting later).
    pub fn with_copy_on_write(self, evidence: bool) -> Self {
        Features {
            copy_on_write_evidence: evidence,
            ..self
        }
    }

    /// The same features, with whether the file's code reads global built-ins as
    /// `pushbltn.v self.x`.
    pub fn with_builtin_self(self, evidence: bool) -> Self {
        Features {
            builtin_self_evidence: evidence,
            ..self
        }
    }

    /// The same features, with whether the file's code ends functions with a lone
    /// `setstatic.e` before `exit.i`.
    pub fn with_end_setstatic(self, evidence: bool) -> Self {
        Features {
            end_setstatic_evidence: evidence,
            ..self
        }
    }

    /// A function without statics ends `setstatic.e / exit.i` (early 2.3 builds: honoo,
    /// detected as 2.3; 2.3.2 files do not): known only from the file's code.
    pub fn end_setstatic(&self) -> bool {
        self.gml_v2() && self.end_setstatic_evidence
    }

    /// Global built-ins (`room`, `working_directory`) are read with instance -1 (`pushbltn.v
    /// self.room`): before 2.3, and in early 2.3 builds (2.3.0 – some 2.3.2: known only from
    /// the file's code, the detected version cannot tell); later instance -6 (`builtin.room`).
    pub fn builtin_globals_self(&self) -> bool {
        !self.gml_v2() || self.builtin_self_evidence
    }

    /// Array copy-on-write: `setowner.e` before array writes (2.3 – 2022.1 always; later when
    /// the game enables it). Taken from the file's code when it has code (else the version's
    /// default).
    pub fn copy_on_write(&self) -> bool {
        self.gml_v2() && self.copy_on_write_evidence
    }

    /// Early 2.3 builds (the ones reading global built-ins as `pushbltn.v self.x`, see
    /// [`Features::builtin_globals_self`]) forget the last array owner at the start of every
    /// if/else arm and loop body, so the first array write there sets it again even when the id
    /// is unchanged; later compilers keep it (spec §4.8; wild: 2.3 and 2.3.2 games with that
    /// evidence re-set the same id in consecutive `if` bodies, 2.3.2+ games without it do not).
    pub fn owner_forgotten_in_arms(&self) -> bool {
        self.copy_on_write() && self.builtin_globals_self()
    }

    /// GameMaker 1.x: the room-background arrays (`background_alpha`, `background_index`, ...)
    /// are built-ins, so a bare name is element 0; GameMaker 2 removed them (backgrounds are
    /// layers) and the names are the game's own variables (wild, 2022.9: `background_alpha`
    /// an instance variable).
    pub fn background_arrays(&self) -> bool {
        !self.version.at_least(2, 0)
    }

    /// The version.
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// The reporting family.
    pub fn family(&self) -> Family {
        let v = &self.version;
        if v.bytecode <= 14 {
            Family::Bc14
        } else if v.bytecode <= 16 {
            Family::Bc15to16
        } else if !v.at_least(2, 3) {
            Family::Bc17Pre23
        } else if !v.at_least(2023, 1) {
            Family::Gml23to2022
        } else {
            Family::Gml2023
        }
    }

    /// bc ≥ 15: new opcode numbering, `pushi`/`pushloc`/`pushglb`/`pushbltn`, one `cmp`.
    pub fn new_opcodes(&self) -> bool {
        self.version.bytecode >= 15
    }

    /// Bytecode 15+: a plain assignment of a bare name to itself (`x = x;`) compiles to nothing
    /// (bytecode 14 and older store it).
    pub fn drops_self_assignment(&self) -> bool {
        self.new_opcodes()
    }

    /// 2.3+ ("GMLv2"): functions, structs, `-9` stacktop marker, argument instance -15.
    pub fn gml_v2(&self) -> bool {
        self.version.at_least(2, 3)
    }

    /// 2.3.2+: compound `&= |= ^=` convert the right side to int64 (before: int32).
    pub fn compound_bitwise_int64(&self) -> bool {
        self.version.at_least_full(2, 3, 2, 0)
    }

    /// 2024.2+: a function declaration's stacktop store always uses instance -1 and struct
    /// literals register their constructor in `global` (before: -6/-1 and `static`).
    pub fn declaration_stores_self(&self) -> bool {
        self.version.non_lts_at_least(2024, 2)
    }

    /// 2023.11+: child code entries of nested functions are named with `@` separators
    /// (`gml_Script_f@parent`); before with `_`.
    pub fn at_child_names(&self) -> bool {
        self.version.non_lts_at_least(2023, 11)
    }

    /// 2023.11+: `global` used as a value (also as an array's owner) is `call.i @@Global@@ 0`.
    /// Also when the file's code calls `@@Global@@` though its chunks look older
    /// ([`Features::with_global_call`]).
    pub fn global_as_call(&self) -> bool {
        self.global_call_evidence || self.version.non_lts_at_least(2023, 11)
    }

    /// The features with what the file's functions show: `true` when the file references
    /// `@@Global@@` (a 2023.8-looking game whose `global.a[i] = v` reads `global` that way
    /// exists).
    pub fn with_global_call(self, evidence: bool) -> Self {
        Features {
            global_call_evidence: evidence,
            ..self
        }
    }

    /// 2024.11+: constructors and struct bodies start with `call.i @@SetStatic@@ 0`.
    pub fn constructor_set_static(&self) -> bool {
        self.version.non_lts_at_least(2024, 11)
    }

    /// 2024.11+: static initializers are non-re-entrant (`setstatic.e` at their top).
    pub fn static_non_reentrant(&self) -> bool {
        self.version.non_lts_at_least(2024, 11)
    }

    /// 2024.11+: only `break`/`continue` that leave a `try` are rewritten through the
    /// `__yy_breakExN` locals (before: every one inside it but directly in a `switch`).
    pub fn try_break_escaping_only(&self) -> bool {
        self.version.non_lts_at_least(2024, 11)
    }

    /// 2024.13+ ("new function resolution", spec §7.1): a function the code declares is
    /// referenced as a value with `pushref.i` (before: `push.i [function]`), and code nested in
    /// a function sees the functions of the code around it.
    pub fn local_function_refs(&self) -> bool {
        self.version.non_lts_at_least(2024, 13)
    }

    /// Before 2024.6: `throw` inside a try with `finally` inlines the finally body first.
    pub fn finally_before_throw(&self) -> bool {
        !self.version.non_lts_at_least(2024, 6)
    }

    /// 2022+: a written `argumentN` in a function with named parameters is the built-in
    /// (`pushbltn.v builtin.argumentN`, its array owner -6); 2.3 to 2.3.2 read it as
    /// `push.v self.argumentN` (corpus vendaval and wild 2.3.2 games; wild 2022.9 shows the
    /// built-in, spec §4.7a says built-in for all of 2.3+: real files win). No file between
    /// 2.3.2 and 2022.9 shows either form; the change is taken at 2022.0.
    pub fn written_argument_builtin(&self) -> bool {
        self.gml_v2() && self.version.at_least(2022, 0)
    }

    /// 2024.11+: default-argument code reads and writes `builtin.argumentK`.
    pub fn builtin_default_arguments(&self) -> bool {
        self.version.non_lts_at_least(2024, 11)
    }

    /// 2024.14+: "optimized function declarations" (plain store after `method`, `{}` as
    /// `@@NewGMLObject@@` with no arguments).
    pub fn optimized_declarations(&self) -> bool {
        self.version.non_lts_at_least(2024, 14)
    }

    /// 2024.14+: an array element read in a data-structure accessor's key (`m[$ a[i]]`) or
    /// on a value that is no variable (`l[| i][1]`) calls `@@array_get@@` (seen in 2024.14
    /// games; 2.3 – 2024.13 call `array_get` in accessor keys).
    pub fn array_get_internal(&self) -> bool {
        self.version.non_lts_at_least(2024, 14)
    }

    /// The function an array element read in an accessor's key calls (2.3+), `None` before.
    pub fn accessor_array_get(&self) -> Option<&'static str> {
        if self.array_get_internal() {
            Some("@@array_get@@")
        } else if self.gml_v2() {
            Some("array_get")
        } else {
            None
        }
    }

    /// 2.3.7+: typed booleans (`true` tracked as `b`), `??` via `isnullish`.
    pub fn typed_booleans(&self) -> bool {
        self.typed_bool_evidence || self.version.at_least_full(2, 3, 7, 0)
    }

    /// 2022.11+ (non-LTS): the repeat decrement is `pushi.e 1` with no `conv.i.b`.
    /// Also when the file's code shows that tail though its chunks look older: the version is
    /// raised ([`Features::with_short_repeat_tail`]).
    pub fn short_repeat_tail(&self) -> bool {
        self.version.non_lts_at_least(2022, 11)
    }

    /// 2024.14+: an `exit`/`return` in a switch's `default:` case leaves the switch value on
    /// the stack (no `popz` before it; other cases still pop it). Seen on two 2024.14 games;
    /// 2024.13 and older games pop it in every case.
    pub fn default_exit_keeps_switch_value(&self) -> bool {
        self.version.non_lts_at_least(2024, 14)
    }

    /// 2023.8+: asset names compile to `pushref`.
    pub fn asset_refs(&self) -> bool {
        self.version.non_lts_at_least(2023, 8)
    }

    /// 2024.2+: bare instance variables are encoded builtin (-6).
    pub fn self_to_builtin(&self) -> bool {
        self.version.non_lts_at_least(2024, 2)
    }

    /// 2024.2+: `variable_get_hash("k")` with a constant compiles to `push.i [variable]k`.
    pub fn variable_hash_refs(&self) -> bool {
        self.version.non_lts_at_least(2024, 2)
    }

    /// 2024.2+: a room instance named in code (`inst_id_N`, see
    /// [`crate::room_instance::name`]) is a `pushref` of the room-instance kind; before,
    /// its id `N` (read through `@@GetInstance@@` as a call's owner).
    pub fn room_instance_refs(&self) -> bool {
        self.version.non_lts_at_least(2024, 2)
    }

    /// A method called on a call's result (`f(a).m(b)`) pushes all arguments of the chain
    /// first, then the inner call, `dup.v 0`, `pushi.e -9` and a stacktop lookup. Seen in
    /// 2024.4 (corpus: ooo-kaizo); 2.3.2 and 2023.8 (corpus: gml-simpledraw) still use the
    /// instance-first `dup.v N 1` form; the exact version in between is not known (taken as
    /// 2024.2, the release of the other 2024 compiler changes). From 2024.14.4 the arguments
    /// come after the callee ([`Features::chained_call_args_last`]).
    pub fn chained_call_args_first(&self) -> bool {
        self.gml_v2() && self.version.non_lts_at_least(2024, 2) && !self.chained_call_args_last()
    }

    /// 2024.14.4+: a method called on a call's result (`f(a).m(b)`) pushes the inner call,
    /// `dup.v 0`, `pushi.e -9`, the stacktop lookup, then its own arguments, moved below the
    /// instance and the function by `dup.e 2 N` (spec §6.2; the version's evidence is that
    /// very instruction).
    pub fn chained_call_args_last(&self) -> bool {
        self.gml_v2() && self.version.at_least_full(2024, 14, 4, 0)
    }

    /// 2024.2+: functions referenced as values compile to `pushref.i <func>` (before:
    /// `push.i [function]…`), unless the file's code shows otherwise
    /// ([`Features::with_function_refs`]).
    pub fn function_refs(&self) -> bool {
        self.version.non_lts_at_least(2024, 2) && self.function_refs_evidence
    }

    /// The features with what the file's code shows about function references: `false` when
    /// its code references functions only with `push.i [function]…` though its chunks look
    /// 2024.2+ (games built by such a compiler exist: a 2024.14-looking game referencing its
    /// constructors by `push.i` only).
    pub fn with_function_refs(self, evidence: bool) -> Self {
        Features {
            function_refs_evidence: evidence,
            ..self
        }
    }

    /// `++`/`--` on a 1-D array element duplicates instance and index with `dup.l 0`
    /// (bc 15/16 and bc 17 before 2.3); `dup.i 1` otherwise.
    pub fn array_update_dup_long(&self) -> bool {
        self.new_opcodes() && !self.gml_v2()
    }

    /// GMS 2+: string literals have escapes (`"a\\b"` is `a\b`). In GMS 1.x text a backslash is
    /// an ordinary character and a string is delimited by `"` or `'` and cannot hold its own
    /// quote (GMS1 code writes `'"'`): the printer writes that dialect for these versions
    /// ([`crate::print::print_for`]) and [`crate::compile::text::prepare`] reads it.
    pub fn escaped_strings(&self) -> bool {
        self.version.is_gms2()
    }

    /// Whether this version compiles `c` ([`Construct`]; the compiler's version gates).
    pub fn has(&self, c: Construct) -> bool {
        match c {
            Construct::ArrayLiteral => self.array_literals(),
            Construct::GmlV2 => self.gml_v2(),
            Construct::Nullish => self.nullish_operators(),
            Construct::TemplateString => self.template_strings(),
        }
    }

    /// GMS2+: array literals `[a, b]` compile to `@@NewGMLArray@@` (spec §7.3: a compile
    /// error before).
    pub fn array_literals(&self) -> bool {
        self.version.is_gms2()
    }

    /// 2.3.7+: `??` and `??=` (`isnullish.e`, spec §4.3), as [`Features::typed_booleans`]
    /// (the same release; the file's typed booleans show that compiler though its chunks
    /// look older).
    pub fn nullish_operators(&self) -> bool {
        self.typed_booleans()
    }

    /// 2023.4+ (non-LTS): template strings `$"a{x}"` (spec §6.5).
    pub fn template_strings(&self) -> bool {
        self.version.non_lts_at_least(2023, 4)
    }

    /// The `1` of `++`/`--` and short-circuit landing constants use plain `push.e`, unlike
    /// every other small integer (`pushi.e`): bc ≥ 15. Before, every small int is `push.e`.
    pub fn push_e_is_signature(&self) -> bool {
        self.new_opcodes()
    }
}
