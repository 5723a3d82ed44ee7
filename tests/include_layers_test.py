#!/usr/bin/env python3
"""Every #include respects the folder graph, and the rules floor stays third-party free.

CMake target links enforce which libraries a folder may link, but every folder shares one
include root, so a header from an upper folder (nets/ from env/, say) would still compile
where it is header-only. This test reads the includes and fails on any arrow that runs
back up, and on a third-party header (nlohmann, LibTorch, Eigen, ...) in core/, env/,
games/, mcts/ or classic/: the rules and the search build with a compiler alone.

Usage: include_layers_test.py REPO_ROOT | --self-test
"""
import os
import re
import sys

# Which project folders each folder may include from (itself included), mirroring the
# target links in the CMakeLists.txt files. Folders not named here (tools, tests, fuzz)
# sit on top and may include anything.
ALLOWED = {
    "core": {"core"},
    "env": {"core", "env"},
    "games": {"core", "env", "games"},
    "mcts": {"core", "env", "mcts"},
    "classic": {"core", "env", "mcts", "classic"},
    "nets": {"core", "env", "mcts", "nets"},
    "play": {"core", "env", "games", "mcts", "classic", "nets", "play"},
    "protocol": {"core", "env", "mcts", "classic", "nets", "play", "protocol"},
    "web": {"core", "env", "mcts", "classic", "nets", "play", "web"},
    "distributed": {"core", "env", "distributed"},
    "parallel": {"core", "env", "parallel"},
    "tasks": {"core", "env", "tasks"},
    "solver": {"core", "env", "solver"},
    "trainer": {"core", "env", "games", "mcts", "classic", "nets", "play", "parallel",
                "trainer"},
    "roles": {"core", "env", "games", "mcts", "classic", "nets", "play", "parallel",
              "trainer", "distributed", "roles"},
}
# The floor: standard library and POSIX headers only.
FLOOR = {"core", "env", "games", "mcts", "classic", "solver"}
# The one floor file allowed a third-party header: the JSON number guards (azg_core_json).
FLOOR_EXCEPTIONS = {"core/json_number.hpp"}
POSIX_PREFIXES = ("sys/", "netinet/", "arpa/")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def violations(root):
    """Yields one line per include that breaks the graph."""
    project = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
    for folder, allowed in sorted(ALLOWED.items()):
        base = os.path.join(root, folder)
        for dirpath, _, files in os.walk(base):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for bracket, target in INCLUDE.findall(text):
                    top = target.split("/", 1)[0]
                    if bracket == '"' and "/" in target and top in project:
                        if top not in allowed:
                            yield f"{rel}: includes {target}, but {folder}/ may not depend on {top}/"
                    elif (bracket == "<" and "/" in target and folder in FLOOR
                          and rel not in FLOOR_EXCEPTIONS
                          and not target.startswith(POSIX_PREFIXES)):
                        yield f"{rel}: includes <{target}>, a third-party header in the rules floor"


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        write("core/ok.hpp", "#include <sys/stat.h>\n#include <string>\n")
        write("core/json_number.hpp", "#include <nlohmann/json.hpp>\n")
        write("env/good.hpp", '#include "core/ok.hpp"\n')
        write("nets/net.hpp", "#include <torch/torch.h>\n")
        write("env/up.hpp", '#include "nets/net.hpp"\n')
        write("mcts/json.hpp", "#include <nlohmann/json.hpp>\n")
        found = list(violations(root))
        assert len(found) == 2, found
        assert any("env/up.hpp" in v and "nets/" in v for v in found), found
        assert any("mcts/json.hpp" in v and "third-party" in v for v in found), found
    print("self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    found = list(violations(sys.argv[1]))
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) break the folder graph")
        return 1
    print("every include respects the folder graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
