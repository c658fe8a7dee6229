"""
The oracle of python-ast.test.ts: Python's own parser judges what the prover accepted. The first
line of stdin is the whitelist (python.ts's PYTHON_WHITELIST); every other line a JSON string, a
program. For each program one line out: a JSON list of what its AST uses outside the whitelist
(empty: the proof holds). A program Python cannot parse runs nothing: empty too.
"""
import ast
import json
import sys

wl = json.loads(sys.stdin.readline())
BUILTINS = set(wl["builtins"])
MODULES = wl["modules"]
VALUE_ATTRIBUTES = set(wl["attributes"])
CHAINS = {m + "." + a for m, attrs in MODULES.items() for a in attrs}
CODECS = {"utf-8", "utf8", "utf_8", "ascii", "us-ascii", "latin-1", "latin1", "latin_1", "iso-8859-1", "iso8859-1", "utf-8-sig", "utf_8_sig"}


def dotted(node):
    """`a.b.c` as ['a', 'b', 'c'] when it is a chain of names, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts
    return None


def judge(code):
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    bad = []
    modules = {}  # local name -> module path
    stored = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name not in MODULES:
                    bad.append("import " + a.name)
                if a.asname:
                    modules[a.asname] = a.name
                else:
                    modules[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.module not in MODULES or node.level:
                bad.append("from %s import" % node.module)
            for a in node.names:
                full = "%s.%s" % (node.module, a.name)
                if full not in CHAINS and full not in MODULES:
                    bad.append("from-import " + full)
                modules[a.asname or a.name] = full
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stored.add(node.id)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stored.add(node.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await)):
            bad.append(type(node).__name__)
    covered = set()  # Attribute nodes judged as part of a module chain
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id.startswith("__"):
                bad.append("dunder " + node.id)
            elif node.id in modules:
                pass
            elif node.id not in BUILTINS and node.id not in stored:
                bad.append("name " + node.id)
        elif isinstance(node, ast.Attribute) and node not in covered:
            parts = dotted(node)
            if parts is not None and parts[0] in modules:
                base = modules[parts[0]].split(".")
                full = base + parts[1:]
                k = len(full)
                while k > len(base) and ".".join(full[:k]) not in CHAINS:
                    k -= 1
                if ".".join(full[:k]) not in CHAINS:
                    bad.append("module attribute " + ".".join(full))
                elif any(r not in VALUE_ATTRIBUTES for r in full[k:]):
                    bad.append("attribute of " + ".".join(full))
                inner = node
                while isinstance(inner, ast.Attribute):
                    covered.add(inner)
                    inner = inner.value
            elif node.attr not in VALUE_ATTRIBUTES or node.attr.startswith("__"):
                bad.append("attribute ." + node.attr)
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "open":
                mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
                if mode is not None and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) <= set("rbt")):
                    bad.append("open mode")
            if name in ("encode", "decode"):
                for a in list(node.args) + [k.value for k in node.keywords if k.arg == "encoding"]:
                    if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                        bad.append("codec not a literal")
                if node.args and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() not in CODECS:
                    bad.append("codec " + str(node.args[0].value))
    return bad


for line in sys.stdin:
    sys.stdout.write(json.dumps(judge(json.loads(line))) + "\n")
