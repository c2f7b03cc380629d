#!/usr/bin/env python3
"""Writes sections.json: the golden cases of the `sections` dialect (spec/dialects.md,
"Sections (multi-parameter input)"; seed 002_56e3e65d15a66c45.txt). The expected values are
written here by hand (the seed's decoded values verbatim), not taken from blockls' output;
`fixed` texts with a UUID use uuid() below, the FNV-1a hash the DELIMITER_COLLISION fix uses.
Run: python3 make_sections_cases.py > sections.json"""
import json

TS = "chatroom task-started j123abc456def --role=builder --task-id=k789xyz --classification=new_feature << 'PARAMS_END'"
HO = "chatroom handoff j123abc456def --role=builder --next-role=user << 'EOF'"


def uuid(block_text):
    h = 2166136261
    for b in block_text.encode():
        h ^= b
        h = (h * 16777619) & 0xFFFFFFFF
    return "%08x" % h


def block(start, end, type_, params, action="same", dialect="sections"):
    return {"dialect": dialect, "start_line": start, "end_line": end,
            "commands": [{"type": type_, "action": type_ if action == "same" else action,
                          "params": params}]}


def err(code, severity, line):
    return {"code": code, "severity": severity, "line": line}


cases = []


def case(name, input_, blocks, errors=(), fixed=None):
    c = {"name": name, "input": input_, "blocks": blocks, "errors": list(errors)}
    if fixed is not None:
        c["fixed"] = fixed
    cases.append(c)


# --- The seed's examples, decoded exactly as the seed prints them -------------------------
ex1 = HO + """
## Summary
Implemented user authentication

## Changes Made
- Added login endpoint
- Added JWT token generation
- Added password hashing with bcrypt

## Testing
- All tests passing
- Manually verified login flow
EOF
"""
case("seed example 1: simple handoff, the whole body is MESSAGE", ex1,
     [block(1, 13, "chatroom handoff", {"message": "## Summary\nImplemented user authentication\n\n## Changes Made\n- Added login endpoint\n- Added JWT token generation\n- Added password hashing with bcrypt\n\n## Testing\n- All tests passing\n- Manually verified login flow"})])

ex2 = "chatroom task-started j123abc456def --role=builder --task-id=k789xyz --classification=new_feature << 'PARAMS_END'" + """
---TITLE---
User Authentication System
---DESCRIPTION---
Add complete authentication flow with JWT tokens.

Users should be able to:
- Register new accounts
- Login with email/password
- Logout and invalidate tokens
---TECH_SPECS---
- Use bcrypt for password hashing (min 10 rounds)
- JWT tokens with 24h expiry
- Refresh tokens stored in database
- Rate limiting on auth endpoints (10 req/min)
PARAMS_END
"""
case("seed example 2: task-started with three parameters, lowerCamelCase keys", ex2,
     [block(1, 16, "chatroom task-started", {
         "title": "User Authentication System",
         "description": "Add complete authentication flow with JWT tokens.\n\nUsers should be able to:\n- Register new accounts\n- Login with email/password\n- Logout and invalidate tokens",
         "techSpecs": "- Use bcrypt for password hashing (min 10 rounds)\n- JWT tokens with 24h expiry\n- Refresh tokens stored in database\n- Rate limiting on auth endpoints (10 req/min)"})])

ex3 = HO + """
## Summary
Fixed markdown rendering

## Details
The code was incorrectly parsing sections like:
---HEADER---
This should be treated as content, not a delimiter.

Fixed by escaping in the parser.
EOF
"""
case("seed example 3: a delimiter-like line inside a single MESSAGE is content", ex3,
     [block(1, 11, "chatroom handoff", {"message": "## Summary\nFixed markdown rendering\n\n## Details\nThe code was incorrectly parsing sections like:\n---HEADER---\nThis should be treated as content, not a delimiter.\n\nFixed by escaping in the parser."})])

struct = """chatroom task-started <chatroomId> --role=<role> --task-id=<id> --classification=new_feature << 'PARAMS_END'
---TITLE---
User Authentication System
---DESCRIPTION---
Add complete user authentication with login/logout and JWT tokens.

This is a multi-line description that can contain anything.
---TECH_SPECS---
- Use bcrypt for password hashing
- JWT tokens with 24h expiry
- Store refresh tokens in DB
PARAMS_END
"""
case("seed structure example, placeholders in the arguments", struct,
     [block(1, 12, "chatroom task-started", {
         "title": "User Authentication System",
         "description": "Add complete user authentication with login/logout and JWT tokens.\n\nThis is a multi-line description that can contain anything.",
         "techSpecs": "- Use bcrypt for password hashing\n- JWT tokens with 24h expiry\n- Store refresh tokens in DB"})])

case("seed single-parameter syntax, placeholders <chatroomId> in the arguments",
     "chatroom handoff <chatroomId> --role=<role> --next-role=<target> << 'EOF'\nContent goes here\nCan span multiple lines\nNo escaping needed\nEOF\n",
     [block(1, 5, "chatroom handoff", {"message": "Content goes here\nCan span multiple lines\nNo escaping needed"})])

coll_block = """chatroom task-started ... << 'PARAMS_END'
---TITLE---
Fix delimiter handling
---DESCRIPTION---
The old code had this pattern:
---TITLE---
Which caused issues.
PARAMS_END"""
u = uuid(coll_block)
coll_fixed = coll_block.replace("---TITLE---\nFix", "---(UUID:%s)TITLE---\nFix" % u).replace(
    "---DESCRIPTION---", "---(UUID:%s)DESCRIPTION---" % u) + "\n"
case("seed edge case: a delimiter repeated in content is DELIMITER_COLLISION on its line, the last occurrence wins; the fix switches to UUID delimiters",
     coll_block + "\n",
     [block(1, 8, "chatroom task-started", {"title": "Which caused issues.",
                                            "description": "The old code had this pattern:"})],
     [err("DELIMITER_COLLISION", "command_error", 6)], coll_fixed)
case("the collision fixed: UUID delimiters, the plain ---TITLE--- line is content", coll_fixed,
     [block(1, 8, "chatroom task-started", {"title": "Fix delimiter handling",
                                            "description": "The old code had this pattern:\n---TITLE---\nWhich caused issues."})])

phase2 = """chatroom task-started ... << 'PARAMS_END'
---(UUID:a1b2c3d4)TITLE---
Content here that might contain ---TITLE---
---(UUID:a1b2c3d4)DESCRIPTION---
More content
PARAMS_END
"""
case("seed phase 2: UUID-prefixed delimiters", phase2,
     [block(1, 6, "chatroom task-started", {"title": "Content here that might contain ---TITLE---",
                                            "description": "More content"})])
case("UUID mode: a plain delimiter line alone is content, and so is another UUID",
     "chatroom task-started x << 'PARAMS_END'\n---(UUID:ABCDEF09)TITLE---\nT\n---TITLE---\n---(UUID:ff)DESCRIPTION---\n---(UUID:ABCDEF09)DESCRIPTION---\nD\nPARAMS_END\n",
     [block(1, 8, "chatroom task-started", {"title": "T\n---TITLE---\n---(UUID:ff)DESCRIPTION---",
                                            "description": "D"})])
case("UUID mode: the same UUID delimiter twice is DELIMITER_COLLISION without a fix",
     "chatroom task-started x << 'P'\n---(UUID:1a)TITLE---\nA\n---(UUID:1a)DESCRIPTION---\nD\n---(UUID:1a)TITLE---\nB\nP\n",
     [block(1, 8, "chatroom task-started", {"title": "B", "description": "D"})],
     [err("DELIMITER_COLLISION", "command_error", 6)])

c3 = """chatroom task-started x << 'P'
---TITLE---
a
---DESCRIPTION---
b
---TITLE---
c
---TECH_SPECS---
d
P"""
u3 = uuid(c3)
c3_fixed = "\n".join(
    ("---(UUID:%s)%s---" % (u3, l[3:-3]) if l.startswith("---") and i != 5 else l)
    for i, l in enumerate(c3.split("\n"))) + "\n"
case("a collision before a later delimiter: the fix rewrites every delimiter but the repeated one",
     c3 + "\n",
     [block(1, 10, "chatroom task-started", {"title": "c", "description": "b", "techSpecs": "d"})],
     [err("DELIMITER_COLLISION", "command_error", 6)], c3_fixed)

# --- Values ---------------------------------------------------------------------------
case("leading and trailing newlines trimmed, other whitespace kept",
     "tool run << 'EOF'\n---A---\n\n\n  indented  \n\n\tx\t\n  \n\n---B---\n\n\nEOF\n",
     [block(1, 13, "tool run", {"a": "  indented  \n\n\tx\t\n  ", "b": ""}, action=None)])
case("an empty section value, and an empty body",
     "chatroom task-started x << 'P'\n---TITLE---\n---DESCRIPTION---\nd\nP\nchatroom handoff x << 'EOF'\nEOF\n",
     [block(1, 5, "chatroom task-started", {"title": "", "description": "d"}),
      block(6, 7, "chatroom handoff", {"message": ""})])
case("delimiters with blanks around them; lowerCamelCase of several words",
     "tool sub --flag << 'EOF'\n  ---TECH_SPECS---\t\nx\n\t---A_B_CD---\ny\n---FEEDBACK---\nz\nEOF\n",
     [block(1, 8, "tool sub", {"techSpecs": "x", "aBCd": "y", "feedback": "z"}, action=None)])
case("lines that are not delimiters are content",
     "tool sub << 'EOF'\n---A---\n---title---\n---TITLE--- x\n---_X---\n--TITLE--\n---TECH-SPECS---\n----\n------\n---(UUID:xyz)B---\n---(UUID:)B---\n---B\n---A1---\nEOF\n",
     [block(1, 14, "tool sub", {"a": "---title---\n---TITLE--- x\n---_X---\n--TITLE--\n---TECH-SPECS---\n----\n------\n---(UUID:xyz)B---\n---(UUID:)B---\n---B\n---A1---"}, action=None)])
case("CRLF: values with \\n line breaks",
     "chatroom task-started x << 'P'\r\n---TITLE---\r\nT\r\n---DESCRIPTION---\r\n\r\nline 1\r\nline 2\r\n\r\nP\r\n",
     [block(1, 9, "chatroom task-started", {"title": "T", "description": "line 1\nline 2"})])

# --- Codes ----------------------------------------------------------------------------
case("STRAY_TEXT: text before the first of several delimiters is ignored (its fix, not preferred, removes it)",
     "chatroom task-started x << 'P'\nHere are the parameters:\n\n---TITLE---\nT\n---DESCRIPTION---\nD\nP\n",
     [block(1, 8, "chatroom task-started", {"title": "T", "description": "D"})],
     [err("STRAY_TEXT", "parameter_warning", 2)])
case("blank lines before the first delimiter are not stray text",
     "chatroom task-started x << 'P'\n\n  \n---TITLE---\nT\n---DESCRIPTION---\nD\nP\n",
     [block(1, 8, "chatroom task-started", {"title": "T", "description": "D"})])
case("UNKNOWN_PARAM: a section the known command does not take (on its delimiter's line)",
     "chatroom task-started x << 'P'\n---TITLE---\nT\n---DESCRIPTION---\nD\n---SUMMARY---\nS\nP\n",
     [block(1, 8, "chatroom task-started", {"title": "T", "description": "D", "summary": "S"})],
     [err("UNKNOWN_PARAM", "parameter_warning", 6)])
case("MISSING_PARAM: a required section is missing (on the command's line); TECH_SPECS is optional",
     "chatroom task-started x << 'P'\n---TITLE---\nT\nP\n",
     [block(1, 4, "chatroom task-started", {"title": "T"})],
     [err("MISSING_PARAM", "command_error", 1)])
case("a multi-parameter command given a plain body: MESSAGE is unknown, its sections missing",
     "chatroom task-started x << 'P'\njust text\nP\n",
     [block(1, 3, "chatroom task-started", {"message": "just text"})],
     [err("MISSING_PARAM", "command_error", 1), err("MISSING_PARAM", "command_error", 1),
      err("UNKNOWN_PARAM", "parameter_warning", 1)])
case("handoff with its one section written as a delimiter",
     "chatroom handoff x << 'EOF'\n---MESSAGE---\nhello\nEOF\n",
     [block(1, 4, "chatroom handoff", {"message": "hello"})])
case("a command the catalog does not know: parsed, never diagnosed for its names",
     "deploy release --env=prod << 'EOF'\n---WHATEVER---\nx\n---NOTES---\ny\nEOF\npython3 - << 'PY'\nprint(1)\nPY\n",
     [block(1, 6, "deploy release", {"whatever": "x", "notes": "y"}, action=None),
      block(7, 9, "python3", {"message": "print(1)"}, action=None)])
case("UNCLOSED_HEREDOC: the fix appends the marker",
     "chatroom handoff x << 'EOF'\nhello\n",
     [{"dialect": "sections", "start_line": 1, "end_line": None,
       "commands": [{"type": "chatroom handoff", "action": "chatroom handoff", "params": {"message": "hello"}}]}],
     [err("UNCLOSED_HEREDOC", "block_fatal", 1)], "chatroom handoff x << 'EOF'\nhello\nEOF\n")
case("UNCLOSED_HEREDOC without a final newline",
     "chatroom handoff x << 'EOF'\nhello",
     [{"dialect": "sections", "start_line": 1, "end_line": None,
       "commands": [{"type": "chatroom handoff", "action": "chatroom handoff", "params": {"message": "hello"}}]}],
     [err("UNCLOSED_HEREDOC", "block_fatal", 1)], "chatroom handoff x << 'EOF'\nhello\nEOF")
case("UNCLOSED_HEREDOC in a Markdown fence: the fix inserts the marker before the fence's closer",
     "Run:\n```bash\nchatroom handoff x << 'EOF'\nhello\n```\nDone.\n",
     [{"dialect": "sections", "start_line": 3, "end_line": None,
       "commands": [{"type": "chatroom handoff", "action": "chatroom handoff", "params": {"message": "hello\n```\nDone."}}]}],
     [err("UNCLOSED_HEREDOC", "block_fatal", 3)],
     "Run:\n```bash\nchatroom handoff x << 'EOF'\nhello\nEOF\n```\nDone.\n")
case("INDENTED_TERMINATOR: a marker with blanks still ends the input",
     "chatroom handoff x << 'EOF'\nhello\n  EOF \n",
     [block(1, 3, "chatroom handoff", {"message": "hello"})],
     [err("INDENTED_TERMINATOR", "syntax_info", 3)], "chatroom handoff x << 'EOF'\nhello\nEOF\n")

# --- Start lines ----------------------------------------------------------------------
case("marker forms: bare, <<-, double quotes; quoted arguments with blanks",
     "tool a <<EOF\nx\nEOF\ntool b <<- END\ny\nEND\ntool c --m=\"a b\" 'c d' << \"M\"\nz\nM\n  indented cmd << 'Q'\nw\nQ\n",
     [block(1, 3, "tool a", {"message": "x"}, action=None),
      block(4, 6, "tool b", {"message": "y"}, action=None),
      block(7, 9, "tool c", {"message": "z"}, action=None),
      block(10, 12, "indented cmd", {"message": "w"}, action=None)])
case("cat is the heredoc dialect's; cat without a file is neither",
     "cat > a.txt << 'EOF'\nx\nEOF\ncat << 'EOF'\ny\nEOF\n",
     [block(1, 3, "file_write", {"path": "a.txt", "content": "x\n"}, dialect="heredoc")])
case("prose that mentions command input stays prose",
     "Use `chatroom handoff << 'EOF'` to hand off.\nWrite chatroom handoff << EOF, then the text.\nNote: pipe it | tool << EOF\nA << B is a shift.\nfoo > out << EOF\n",
     [])
case("a sentence that ends by quoting the operator is prose: programs are named in lower case",
     "The shell reads until the marker <<EOF\nPaste the text, then type EOF.\nOr write: git commit -F - << EOF\nUse a heredoc: << 'EOF'\n",
     [])
case("the same command in lower case opens a block",
     "git commit -F - << EOF\nFix the parser\nEOF\n",
     [block(1, 3, "git commit", {"message": "Fix the parser"}, action=None)])
case("a NESL assignment with a heredoc value outside a block is not command input",
     "content = <<'EOT_abc'\nhello\nEOT_abc\n", [])
case("a body is content: other dialects' start lines and fences inside it",
     "```bash\nchatroom handoff x << 'EOF'\ncat > a.txt << 'X'\n#!telt [3-char SHA: abc]\n<<<<<<< SEARCH\n```\nEOF\n```\n",
     [block(2, 7, "chatroom handoff", {"message": "cat > a.txt << 'X'\n#!telt [3-char SHA: abc]\n<<<<<<< SEARCH\n```"})])
case("a heredoc body holds a command-input start line as content",
     "cat > run.sh << 'EOF'\nchatroom handoff x << 'MSG'\nhi\nMSG\nEOF\n",
     [block(1, 5, "file_write", {"path": "run.sh", "content": "chatroom handoff x << 'MSG'\nhi\nMSG\n"}, dialect="heredoc")])

# --- Runs of section content (the fast path) ---------------------------------------------
case("fast path: bullet lines and a near-marker line are content; an indented marker ends",
     "chatroom task-started c1 --role=r --task-id=t << 'PARAMS_END'\n---TITLE---\nT\n---DESCRIPTION---\n- bullet\n  - nested\nPARAMS_END now\nPARAMS_ENDING\n\n  PARAMS_END\n",
     [{"dialect": "sections", "start_line": 1, "end_line": 10, "commands": [{"type": "chatroom task-started", "action": "chatroom task-started", "params": {"description": "- bullet\n  - nested\nPARAMS_END now\nPARAMS_ENDING", "title": "T"}}]}],
     [{"code": "INDENTED_TERMINATOR", "severity": "syntax_info", "line": 10}],
     "chatroom task-started c1 --role=r --task-id=t << 'PARAMS_END'\n---TITLE---\nT\n---DESCRIPTION---\n- bullet\n  - nested\nPARAMS_END now\nPARAMS_ENDING\n\nPARAMS_END\n")
case("fast path: the fence closes inside a section",
     "```bash\nchatroom handoff c1 --role=a --next-role=b << 'EOF'\n---MESSAGE---\nhello\n```\nafter\nEOF\n",
     [{"dialect": "sections", "start_line": 2, "end_line": 7, "commands": [{"type": "chatroom handoff", "action": "chatroom handoff", "params": {"message": "hello\n```\nafter"}}]}],
     [])
case("fast path: CRLF sections",
     "chatroom handoff c1 --role=a --next-role=b << 'EOF'\r\n---MESSAGE---\r\nhi\r\n\r\nthere\r\nEOF\r\n",
     [{"dialect": "sections", "start_line": 1, "end_line": 6, "commands": [{"type": "chatroom handoff", "action": "chatroom handoff", "params": {"message": "hi\n\nthere"}}]}],
     [])

print(json.dumps({"source": "spec/dialects.md (Sections (multi-parameter input)) + seed 002 (phase 1 and phase 2, every example and edge case)",
                  "generator": "make_sections_cases.py", "cases": cases}, indent=2, ensure_ascii=False))
