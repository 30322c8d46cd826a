"""Go's `regexp.Compile` verdict on a pattern: the error text it returns, or None.

A port of the parser of Go's `regexp/syntax` (`parse.go`, Perl flags as `regexp.Compile` passes them:
`ClassNL | OneLine | PerlX | UnicodeGroups`), kept to what decides acceptance: the parse stack of
groups, alternations and repetitions, the escapes, classes, flags and named captures, the repeat
limits (`maxRepeat`, `repeatIsValid`) and the nesting limit (`maxHeight`). Errors read as Go's
`*syntax.Error` does: ``error parsing regexp: <code>: `<expr>```.

Two Go versions matter: Kubernetes 1.30 and 1.31 build with Go 1.22, 1.37 with Go 1.26. They differ
in one place, the names ``\\p{...}`` accepts: Go 1.22 takes `unicode.Categories`, `unicode.Scripts`
and ``Any`` spelled exactly; Go 1.25 on also takes ``Assigned``, ``ASCII``, ``Cn``, ``LC`` and the
category aliases (``Letter``), ignoring case, spaces, underscores and hyphens (`canonicalName`).
Pass ``unicode_aliases=True`` for the latter.

Not ported: the size limit (`maxSize`, "expression too large": some 3.3 million compiled
instructions, `calcSize`), which only contrived repetitions reach within a 10 KiB selector (Go's
parse_test.go refuses ``"(" + "(xx?)" * 1000 + "){1000}"``, 5 KB, which is accepted here), and the
rune-count limit (`maxRunes`, 32 million runes in classes: out of reach).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# regexp/syntax ErrorCode texts.
INVALID_CHAR_CLASS = "invalid character class"
INVALID_CHAR_RANGE = "invalid character class range"
INVALID_ESCAPE = "invalid escape sequence"
INVALID_NAMED_CAPTURE = "invalid named capture"
INVALID_PERL_OP = "invalid or unsupported Perl syntax"
INVALID_REPEAT_OP = "invalid nested repetition operator"
INVALID_REPEAT_SIZE = "invalid repeat count"
INVALID_UTF8 = "invalid UTF-8"
MISSING_BRACKET = "missing closing ]"
MISSING_PAREN = "missing closing )"
MISSING_REPEAT_ARGUMENT = "missing argument to repetition operator"
TRAILING_BACKSLASH = "trailing backslash at end of expression"
UNEXPECTED_PAREN = "unexpected )"
NESTING_DEPTH = "expression nests too deeply"

MAX_REPEAT = 1000  # maxRepeat
MAX_HEIGHT = 1000  # maxHeight
MAX_RUNE = 0x10FFFF

# Node kinds; LEFT_PAREN and VERTICAL_BAR are the parser's pseudo-operators (opPseudo and up).
LITERAL, LEAF, CHAR_CLASS, CAPTURE, STAR, PLUS, QUEST, REPEAT, CONCAT, ALTERNATE, EMPTY = range(11)
LEFT_PAREN, VERTICAL_BAR = 100, 101

# perl_groups.go: the Perl class escapes and the POSIX classes (each also negated with ``^``).
PERL_GROUPS = frozenset({"\\d", "\\D", "\\s", "\\S", "\\w", "\\W"})


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_POSIX = _names("alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit")
POSIX_GROUPS = frozenset(f"[:{neg}{name}:]" for name in _POSIX for neg in ("", "^"))

# unicode.Categories of Go 1.22 (Unicode 15.0.0); Go 1.25 adds Cn and LC.
CATEGORIES = _names("C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps")
CATEGORIES |= _names("S Sc Sk Sm So Z Zl Zp Zs")
# unicode.Scripts (Unicode 15.0.0, Go 1.21 on).
SCRIPTS = _names(
    """Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali
    Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma
    Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari
    Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic
    Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew
    Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi
    Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha
    Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen
    Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi
    Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu
    Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic
    Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong
    Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada
    Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog
    Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh
    Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square"""
)
# unicode.CategoryAliases (Go 1.25 on): the long names of the general categories.
CATEGORY_ALIASES = _names(
    """Cased_Letter Close_Punctuation Connector_Punctuation Control Currency_Symbol Dash_Punctuation
    Decimal_Number Enclosing_Mark Final_Punctuation Format Initial_Punctuation Letter Letter_Number
    Line_Separator Lowercase_Letter Mark Math_Symbol Modifier_Letter Modifier_Symbol Nonspacing_Mark Number
    Open_Punctuation Other Other_Letter Other_Number Other_Punctuation Other_Symbol Paragraph_Separator
    Private_Use Punctuation Separator Space_Separator Spacing_Mark Surrogate Symbol Titlecase_Letter
    Unassigned Uppercase_Letter"""
)


def canonical_name(name: str) -> str:
    """Go 1.25 `canonicalName`: the first letter upper case, the rest lower case (ASCII), without
    underscores, spaces and hyphens."""
    out: list[str] = []
    first = True
    for c in name:
        if c in "_- ":
            continue
        if first:
            out.append(c.upper() if "a" <= c <= "z" else c)
            first = False
        else:
            out.append(c.lower() if "A" <= c <= "Z" else c)
    return "".join(out)


_GO_1_25_SPECIAL_NAMES = ("Any", "Assigned", "Ascii", "Lc", "Cn")
_CANONICAL_NAMES = frozenset(
    canonical_name(n) for n in (*CATEGORIES, *_GO_1_25_SPECIAL_NAMES, *SCRIPTS, *CATEGORY_ALIASES)
)


def unicode_class_exists(name: str, *, unicode_aliases: bool) -> bool:
    """Whether `unicodeTable(name)` finds a table (Go 1.22, or Go 1.25 on with `unicode_aliases`)."""
    if unicode_aliases:
        return canonical_name(name) in _CANONICAL_NAMES
    return name == "Any" or name in CATEGORIES or name in SCRIPTS


class GoRegexpError(Exception):
    """A `*syntax.Error`: its code and the offending part of the expression."""

    def __init__(self, code: str, expr: str) -> None:
        super().__init__(f"error parsing regexp: {code}: `{expr}`")
        self.code = code
        self.expr = expr


@dataclass(eq=False, slots=True)
class _Node:
    kind: int
    subs: list[_Node] = field(default_factory=list)
    min: int = 0
    max: int = 0
    capture: bool = False  # a LEFT_PAREN that opens a capturing group
    fold: bool = False  # a LITERAL under (?i), or the flags saved by a LEFT_PAREN
    height: int = 1
    runes: int = 1  # a LITERAL's length: a run of literals is one node in Go


def _is_alnum(c: str) -> bool:
    return "0" <= c <= "9" or "A" <= c <= "Z" or "a" <= c <= "z"


def _unhex(c: str) -> int:
    return int(c, 16) if c and c in "0123456789abcdefABCDEF" else -1


def _next_rune(s: str) -> tuple[str, str]:
    """`nextRune`: Go decodes UTF-8; a Python string's only undecodable runes are lone surrogates.
    An empty string yields utf8.RuneError, as Go's decoder does."""
    if not s:
        return "\ufffd", ""
    c = s[0]
    if "\ud800" <= c <= "\udfff":
        raise GoRegexpError(INVALID_UTF8, s)
    return c, s[1:]


def _repeat_is_valid(node: _Node, n: int) -> bool:
    """`repeatIsValid`: the product of nested repeat counts stays within `n` copies. Go recurses;
    this walks with a stack of its own, as a pattern may nest up to 1000 deep (`maxHeight`)."""
    pending = [(node, n)]
    while pending:
        node, n = pending.pop()
        if node.kind == REPEAT:
            m = node.max
            if m == 0:
                continue
            if m < 0:
                m = node.min
            if m > n:
                return False
            if m > 0:
                n //= m
        pending.extend((sub, n) for sub in node.subs)
    return True


class _Parser:
    def __init__(self, whole: str, unicode_aliases: bool) -> None:
        self.whole = whole
        self.unicode_aliases = unicode_aliases
        self.stack: list[_Node] = []
        self.fold = False  # the FoldCase flag; the other flags change no verdict

    # --- the parse stack --------------------------------------------------------------------

    @staticmethod
    def new(kind: int, subs: list[_Node] | None = None, low: int = 0, high: int = 0) -> _Node:
        node = _Node(kind, subs or [], low, high)
        if node.subs:
            node.height = 1 + max(sub.height for sub in node.subs)
        return node

    def check_height(self, node: _Node) -> None:
        """`checkHeight`: no node of the tree more than `maxHeight` deep."""
        if node.height > MAX_HEIGHT:
            raise GoRegexpError(NESTING_DEPTH, self.whole)

    def push(self, node: _Node) -> None:
        self.stack.append(node)
        self.check_height(node)

    def literal(self) -> None:
        node = self.new(LITERAL)
        node.fold = self.fold
        self.push(node)

    def op(self, kind: int) -> None:
        self.push(self.new(kind))

    def _above_pseudo(self) -> list[_Node]:
        i = len(self.stack)
        while i > 0 and self.stack[i - 1].kind < LEFT_PAREN:
            i -= 1
        subs = self.stack[i:]
        del self.stack[i:]
        return subs

    def _collapse(self, subs: list[_Node], kind: int) -> _Node:
        if len(subs) == 1:
            return subs[0]
        flat: list[_Node] = []
        for sub in subs:
            flat.extend(sub.subs if sub.kind == kind else [sub])
        return self.new(kind, flat)

    def concat(self) -> None:
        subs = _merge_literal_runs(self._above_pseudo())
        self.push(self.new(EMPTY) if not subs else self._collapse(subs, CONCAT))

    def alternate(self) -> None:
        subs = _without_empty_runs(self._above_pseudo())
        self.push(self.new(EMPTY) if not subs else self._collapse(subs, ALTERNATE))

    def swap_vertical_bar(self) -> bool:
        stack = self.stack
        n = len(stack)
        if n >= 3 and stack[n - 2].kind == VERTICAL_BAR and _is_char_class(stack[n - 1], stack[n - 3]):
            stack.pop()  # merged into the class below the bar
            return True
        if n >= 2 and stack[n - 2].kind == VERTICAL_BAR:
            stack[n - 2], stack[n - 1] = stack[n - 1], stack[n - 2]
            return True
        return False

    def vertical_bar(self) -> None:
        self.concat()
        if not self.swap_vertical_bar():
            self.stack.append(_Node(VERTICAL_BAR))

    def right_paren(self) -> None:
        self.concat()
        if self.swap_vertical_bar():
            self.stack.pop()
        self.alternate()
        if len(self.stack) < 2:
            raise GoRegexpError(UNEXPECTED_PAREN, self.whole)
        inner = self.stack.pop()
        paren = self.stack.pop()
        if paren.kind != LEFT_PAREN:
            raise GoRegexpError(UNEXPECTED_PAREN, self.whole)
        self.fold = paren.fold
        self.push(self.new(CAPTURE, [inner]) if paren.capture else inner)

    def repeat(self, kind: int, low: int, high: int, before: str, after: str, last_repeat: str) -> str:
        if after[:1] == "?":
            after = after[1:]
        if last_repeat:
            # Perl forbids stacked repetition operators: a** is an error.
            raise GoRegexpError(INVALID_REPEAT_OP, last_repeat[: len(last_repeat) - len(after)])
        if not self.stack or self.stack[-1].kind >= LEFT_PAREN:
            raise GoRegexpError(MISSING_REPEAT_ARGUMENT, before[: len(before) - len(after)])
        node = self.new(kind, [self.stack[-1]], low, high)
        self.stack[-1] = node
        self.check_height(node)
        if kind == REPEAT and (low >= 2 or high >= 2) and not _repeat_is_valid(node, MAX_REPEAT):
            raise GoRegexpError(INVALID_REPEAT_SIZE, before[: len(before) - len(after)])
        return after

    # --- the pattern --------------------------------------------------------------------------

    def parse(self) -> None:
        t = self.whole
        last_repeat = ""
        while t:
            repeat = ""
            c = t[0]
            if c == "(":
                if t[1:2] == "?":
                    t = self.perl_flags(t)
                else:
                    self.stack.append(_Node(LEFT_PAREN, capture=True, fold=self.fold))
                    t = t[1:]
            elif c == "|":
                self.vertical_bar()
                t = t[1:]
            elif c == ")":
                self.right_paren()
                t = t[1:]
            elif c == ".":
                self.op(CHAR_CLASS)  # OpAnyCharNotNL or OpAnyChar: a class to `isCharClass`
                t = t[1:]
            elif c in "^$":
                self.op(LEAF)
                t = t[1:]
            elif c == "[":
                t = self.char_class(t)
            elif c in "*+?":
                kind = {"*": STAR, "+": PLUS, "?": QUEST}[c]
                t, repeat = self.repeat(kind, 0, 0, t, t[1:], last_repeat), t
            elif c == "{":
                parsed = _parse_repeat(t)
                if parsed is None:
                    self.literal()  # not a repeat: { is a literal
                    t = t[1:]
                else:
                    low, high, after = parsed
                    if low < 0 or low > MAX_REPEAT or high > MAX_REPEAT or (high >= 0 and low > high):
                        raise GoRegexpError(INVALID_REPEAT_SIZE, t[: len(t) - len(after)])
                    t, repeat = self.repeat(REPEAT, low, high, t, after, last_repeat), t
            elif c == "\\":
                t = self.escape(t)
            else:
                _, t = _next_rune(t)
                self.literal()
            last_repeat = repeat
        self.concat()
        if self.swap_vertical_bar():
            self.stack.pop()
        self.alternate()
        if len(self.stack) != 1:
            raise GoRegexpError(MISSING_PAREN, self.whole)

    def escape(self, t: str) -> str:
        second = t[1:2]
        if second in ("A", "b", "B", "z"):
            self.op(LEAF)
            return t[2:]
        if second == "C":  # any byte: not supported
            raise GoRegexpError(INVALID_ESCAPE, t[:2])
        if second == "Q":  # \Q ... \E: literals
            literal, _, t = t[2:].partition("\\E")
            for c in literal:
                _next_rune(c)
                self.literal()
            return t
        if second in ("p", "P"):
            rest = self.unicode_class(t)
            self.op(CHAR_CLASS)
            return rest
        if t[:2] in PERL_GROUPS:
            self.op(CHAR_CLASS)
            return t[2:]
        _, t = _parse_escape(t)
        self.literal()
        return t

    def perl_flags(self, s: str) -> str:
        """`parsePerlFlags`: a named capture, or flags and maybe a non-capturing group."""
        t = s
        starts_with_p = len(t) > 4 and t[2] == "P" and t[3] == "<"
        starts_with_name = len(t) > 3 and t[2] == "<"
        if starts_with_p or starts_with_name:
            end = t.find(">")
            if end < 0:
                _check_utf8(t)
                raise GoRegexpError(INVALID_NAMED_CAPTURE, s)
            capture, name = t[: end + 1], t[(4 if starts_with_p else 3) : end]
            _check_utf8(name)
            if not name or not all(c == "_" or _is_alnum(c) for c in name):
                raise GoRegexpError(INVALID_NAMED_CAPTURE, capture)
            # Go allows a name twice: (?P<n>a)(?P<n>b) compiles.
            self.stack.append(_Node(LEFT_PAREN, capture=True, fold=self.fold))
            return t[end + 1 :]
        t = t[2:]
        fold = self.fold
        negated = False
        saw_flag = False
        while t:
            c, t = _next_rune(t)
            if c in "imsU":
                if c == "i":
                    fold = not negated
                saw_flag = True
            elif c == "-":
                if negated:
                    break
                negated = True
                saw_flag = False
            elif c in ":)":
                if negated and not saw_flag:
                    break
                if c == ":":
                    self.stack.append(_Node(LEFT_PAREN, fold=self.fold))
                self.fold = fold
                return t
            else:
                break
        raise GoRegexpError(INVALID_PERL_OP, s[: len(s) - len(t)])

    def unicode_class(self, s: str) -> str:
        """`parseUnicodeClass` on ``\\p``/``\\P`` at the start of `s`; returns the rest."""
        c, t = _next_rune(s[2:])
        if c != "{":
            seq = s[: len(s) - len(t)]
            name = seq[2:]
        else:
            end = s.find("}")
            if end < 0:
                _check_utf8(s)
                raise GoRegexpError(INVALID_CHAR_RANGE, s)
            seq, t = s[: end + 1], s[end + 1 :]
            name = s[3:end]
            _check_utf8(name)
        if name.startswith("^"):
            name = name[1:]
        if not unicode_class_exists(name, unicode_aliases=self.unicode_aliases):
            raise GoRegexpError(INVALID_CHAR_RANGE, seq)
        return t

    def char_class(self, s: str) -> str:
        """`parseClass` on the ``[`` at the start of `s`; returns the rest after ``]``."""
        t = s[1:]
        if t[:1] == "^":
            t = t[1:]
        first = True
        while t == "" or t[0] != "]" or first:
            first = False
            if len(t) > 2 and t[0] == "[" and t[1] == ":":
                end = t.find(":]", 2)
                if end >= 0:
                    name = t[: end + 2]
                    if name not in POSIX_GROUPS:
                        raise GoRegexpError(INVALID_CHAR_RANGE, name)
                    t = t[end + 2 :]
                    continue
            if t[:2] in ("\\p", "\\P"):
                t = self.unicode_class(t)
                continue
            if t[:2] in PERL_GROUPS:
                t = t[2:]
                continue
            range_start = t
            low, t = _parse_class_char(t, s)
            if len(t) >= 2 and t[0] == "-" and t[1] != "]":
                high, t = _parse_class_char(t[1:], s)
                if ord(high) < ord(low):
                    raise GoRegexpError(INVALID_CHAR_RANGE, range_start[: len(range_start) - len(t)])
        self.op(CHAR_CLASS)
        return t[1:]


def _is_char_class(*nodes: _Node) -> bool:
    """`isCharClass`: a one-rune literal, a class, or `.` (OpAnyCharNotNL, OpAnyChar)."""
    return all((node.kind == LITERAL and node.runes == 1) or node.kind == CHAR_CLASS for node in nodes)


def _merge_literal_runs(subs: list[_Node]) -> list[_Node]:
    """Go keeps a run of literals of one case folding as one string node."""
    out: list[_Node] = []
    for sub in subs:
        if out and sub.kind == LITERAL and out[-1].kind == LITERAL and out[-1].fold == sub.fold:
            out[-1] = _Node(LITERAL, fold=sub.fold, runes=out[-1].runes + sub.runes)
            continue
        out.append(sub)
    return out


def _without_empty_runs(subs: list[_Node]) -> list[_Node]:
    """`factor`'s round 4: a run of empty alternatives is one empty match."""
    return [
        sub
        for i, sub in enumerate(subs)
        if not (sub.kind == EMPTY and i + 1 < len(subs) and subs[i + 1].kind == EMPTY)
    ]


def _check_utf8(s: str) -> None:
    for i, c in enumerate(s):
        if "\ud800" <= c <= "\udfff":
            raise GoRegexpError(INVALID_UTF8, s[i:])


def _parse_int(s: str) -> tuple[int, str] | None:
    """`parseInt`: a decimal without leading zeros; -1 when it reaches 1e8."""
    if not s or not "0" <= s[0] <= "9":
        return None
    if len(s) >= 2 and s[0] == "0" and "0" <= s[1] <= "9":
        return None
    i = 0
    while i < len(s) and "0" <= s[i] <= "9":
        i += 1
    n = 0
    for digit in s[:i]:
        if n >= 100_000_000:
            n = -1
            break
        n = n * 10 + int(digit)
    return n, s[i:]


def _parse_repeat(s: str) -> tuple[int, int, str] | None:
    """`parseRepeat`: ``{min}``, ``{min,}`` (max -1) or ``{min,max}``; None when not of that form."""
    parsed = _parse_int(s[1:])
    if parsed is None:
        return None
    low, s = parsed
    if not s:
        return None
    if s[0] != ",":
        high = low
    else:
        s = s[1:]
        if not s:
            return None
        if s[0] == "}":
            high = -1
        else:
            parsed = _parse_int(s)
            if parsed is None:
                return None
            high, s = parsed
            if high < 0:
                low = -1
    if not s or s[0] != "}":
        return None
    return low, high, s[1:]


def _parse_escape(s: str) -> tuple[str, str]:
    """`parseEscape`: the rune of the escape at the start of `s`, and the rest."""
    t = s[1:]
    if not t:
        raise GoRegexpError(TRAILING_BACKSLASH, "")
    c, t = _next_rune(t)
    if c in "1234567":
        # A lone non-zero digit would be a backreference: not supported.
        if t and "0" <= t[0] <= "7":
            return _octal(c, t)
    elif c == "0":
        return _octal(c, t)
    elif c == "x":
        if t:
            c, t = _next_rune(t)
            if c == "{":
                digits = 0
                value = 0
                while True:
                    if not t:
                        break
                    c, t = _next_rune(t)
                    if c == "}":
                        if digits:
                            return chr(value), t
                        break
                    v = _unhex(c)
                    if v < 0:
                        break
                    value = value * 16 + v
                    if value > MAX_RUNE:
                        break
                    digits += 1
            else:
                x = _unhex(c)
                c, t = _next_rune(t)
                if x >= 0 and _unhex(c) >= 0:
                    return chr(x * 16 + _unhex(c)), t
    elif c in "afnrtv":
        return c, t
    elif c < "\x80" and not _is_alnum(c):
        return c, t  # escaped punctuation is itself
    raise GoRegexpError(INVALID_ESCAPE, s[: len(s) - len(t)])


def _octal(first: str, t: str) -> tuple[str, str]:
    value = int(first)
    for _ in range(2):
        if not t or not "0" <= t[0] <= "7":
            break
        value = value * 8 + int(t[0])
        t = t[1:]
    return chr(value), t


def _parse_class_char(s: str, whole_class: str) -> tuple[str, str]:
    if not s:
        raise GoRegexpError(MISSING_BRACKET, whole_class)
    if s[0] == "\\":
        return _parse_escape(s)
    return _next_rune(s)


def go_regexp_error(pattern: str, *, unicode_aliases: bool = False) -> str | None:
    """The error `regexp.Compile(pattern)` returns, or None when Go compiles it. `unicode_aliases`:
    the ``\\p{...}`` names of Go 1.25 and later (Kubernetes 1.37)."""
    try:
        _Parser(pattern, unicode_aliases).parse()
    except GoRegexpError as err:
        return str(err)
    return None
