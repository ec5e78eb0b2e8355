"""The package installs anywhere (issue 27, item 6).

The slow tests do what a new user does: build the wheel and the sdist from the source tree, install the
wheel into a fresh virtual environment, and run the judge and the server from an unrelated folder, with a
home and a data folder of their own. The fast ones keep pyproject.toml's hand-made package list whole and
pin where a checkout keeps its lists and indexes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest

from indexes import paths
from tests.conftest import free_port
from tests.serving import healthy, stop

REPO = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
#: What the word-list data package must carry, as the repository's wordlists/ names them.
DATA_FILES = ["standard.tsv", "complete.tsv", "overlay.txt", "glosses.txt", "ATTRIBUTION.md", "SCOWL-COPYRIGHT",
              "WORDNET-LICENSE"]  # fmt: skip
#: Bounds on the slow steps (each is a few seconds here; an index build on a loaded machine is the longest).
STEP_TIMEOUT = 600
Done = subprocess.CompletedProcess[str]


# --- fast: the package list and the checkout's layout ----------------------------------------------------


def test_every_python_folder_of_the_checkout_is_a_listed_package() -> None:
    """pyproject.toml lists its packages by hand (the word lists are a mapped package, which setuptools'
    find cannot add); a new folder of modules left out of the list would be missing from the wheel. The
    pages' folder is data (a script there, such as the icons' maker, rides along as a file)."""
    listed = set(SETUPTOOLS["packages"])
    mapped = set(SETUPTOOLS["package-dir"])
    roots = {name.split(".")[0] for name in listed - mapped}
    found = {
        ".".join(module.parent.relative_to(REPO).parts)
        for root in roots
        for module in (REPO / root).rglob("*.py")
        if not {"__pycache__", "built"} & set(module.parts) and not module.is_relative_to(REPO / "service" / "static")
    }
    assert found == listed - mapped


def test_the_word_list_package_is_the_repositorys_wordlists_folder() -> None:
    assert SETUPTOOLS["package-dir"] == {"indexes.wordlists": "wordlists"}
    assert paths.PACKAGED_WORDLISTS.parent == REPO / "indexes"
    for name in DATA_FILES:
        assert (REPO / "wordlists" / name).is_file(), name


def test_a_checkout_keeps_its_lists_and_indexes_in_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEJUDGE_WORDLISTS", raising=False)
    monkeypatch.delenv("TABLEJUDGE_INDEX_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/nonexistent")  # not consulted in a checkout
    assert paths.in_checkout()
    assert paths.wordlists_dir() == REPO / "wordlists"
    assert paths.index_dir() == REPO / "indexes" / "built"


def test_the_environment_variables_win(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLEJUDGE_WORDLISTS", str(tmp_path / "lists"))
    monkeypatch.setenv("TABLEJUDGE_INDEX_DIR", str(tmp_path / "built"))
    assert paths.wordlists_dir() == tmp_path / "lists"
    assert paths.index_dir() == tmp_path / "built"
    monkeypatch.setenv("TABLEJUDGE_WORDLISTS", "")  # empty is unset, not the current folder
    assert paths.wordlists_dir() == REPO / "wordlists"


def test_the_user_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert paths.user_data_dir() == tmp_path / "xdg" / "tablejudge"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.user_data_dir() == tmp_path / "home" / ".local" / "share" / "tablejudge"


# --- slow: build, install, run ------------------------------------------------------------------------------


def run(command: list[str | Path], cwd: Path | None = None, env: dict[str, str] | None = None) -> Done:
    """Run to the end within STEP_TIMEOUT; a failure shows the command's output."""
    argv = [str(part) for part in command]
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT)
    assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done


def source_tree(target: Path) -> frozenset[str]:
    """Copy the files a build of the checkout sees (tracked, and new but not ignored) to ``target``, so that
    no stale ``build/`` folder of the checkout's own leaks into the wheel, and the checkout is not written
    to; return their names."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO).stdout
    names = frozenset(name for name in listed.split("\0") if (REPO / name).is_file())  # not a deleted one
    for name in names:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target / name)
    return names


@dataclass(frozen=True)
class Built:
    source: Path
    #: The source tree's files, listed before any build wrote to it.
    files: frozenset[str]
    wheel: Path
    sdist: Path
    wheel_from_sdist: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The wheel (``pip wheel --no-deps`` of the tree, as a user builds it), the sdist (setuptools' PEP 517
    hook, the version pip's isolated build would use) and the wheel pip builds from that sdist."""
    if not (REPO / ".git").exists():  # an unpacked sdist, say: no list of the tree's own files to build from
        pytest.skip("builds from a git checkout")
    work = tmp_path_factory.mktemp("package")
    source = work / "source"
    files = source_tree(source)
    pip = [sys.executable, "-m", "pip"]
    run([*pip, "wheel", "--no-deps", "--wheel-dir", work / "wheel", source])
    (wheel,) = (work / "wheel").glob("tablejudge-*.whl")
    # No frontend for sdists is a dependency; the hook runs from a folder of its own holding the setuptools
    # pyproject.toml asks for, with no site-packages (-S) so the environment's older setuptools stays out.
    tools = work / "build-tools"
    requires = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    run([*pip, "install", "--quiet", "--target", tools, *requires])
    hook = "import sys; sys.path.insert(0, sys.argv[1]); import setuptools.build_meta as b; b.build_sdist(sys.argv[2])"
    run([sys.executable, "-S", "-c", hook, tools, work / "sdist"], cwd=source)
    (sdist,) = (work / "sdist").glob("tablejudge-*.tar.gz")
    run([*pip, "wheel", "--no-deps", "--wheel-dir", work / "wheel-from-sdist", sdist])
    (wheel_from_sdist,) = (work / "wheel-from-sdist").glob("tablejudge-*.whl")
    return Built(source, files, wheel, sdist, wheel_from_sdist)


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.mark.slow
def test_the_wheel_carries_the_word_lists_and_every_page_file(built: Built) -> None:
    names = wheel_names(built.wheel)
    with zipfile.ZipFile(built.wheel) as archive:
        for name in DATA_FILES:
            assert archive.read(f"indexes/wordlists/{name}") == (built.source / "wordlists" / name).read_bytes()
    static = built.source / "service" / "static"
    pages = {f"service/static/{path.relative_to(static).as_posix()}" for path in static.rglob("*") if path.is_file()}
    assert "service/static/play/games/bop.js" in pages  # a folder in a folder: the glob must reach it
    assert pages <= names, sorted(pages - names)
    assert not any(name.startswith(("indexes/built/", "tests/", "benchmarks/")) for name in names)


@pytest.mark.slow
def test_the_sdist_is_the_source_tree_and_builds_the_same_wheel(built: Built) -> None:
    with tarfile.open(built.sdist) as archive:
        members = {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}
    made_by_the_build = {"PKG-INFO", "setup.cfg"} | {name for name in members if ".egg-info/" in name}
    # Every file of the tree, the word lists among them, and nothing else (MANIFEST.in).
    assert {f"wordlists/{name}" for name in DATA_FILES} <= members
    assert sorted(members - made_by_the_build - built.files) == []
    assert sorted(built.files - members) == [], "MANIFEST.in leaves these out of the sdist"
    record = "tablejudge-0.1.0.dist-info/RECORD"
    assert wheel_names(built.wheel_from_sdist) == wheel_names(built.wheel)
    with zipfile.ZipFile(built.wheel) as direct, zipfile.ZipFile(built.wheel_from_sdist) as via_sdist:
        assert direct.read(record) == via_sdist.read(record)  # every file's hash: the same bytes


@pytest.fixture(scope="module")
def venv(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (its dependencies from the package index)."""
    folder = tmp_path_factory.mktemp("installed") / "venv"
    run([sys.executable, "-m", "venv", folder])
    run([folder / "bin" / "python", "-m", "pip", "install", "--quiet", built.wheel])
    return folder


@dataclass(frozen=True)
class User:
    """A new user's process environment: a home and an XDG data folder of their own, nothing of the
    checkout's (no PYTHONPATH, no TABLEJUDGE_* settings), and an unrelated current folder."""

    env: dict[str, str]
    home: Path
    data_home: Path
    elsewhere: Path


@pytest.fixture
def user(tmp_path: Path) -> User:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("TABLEJUDGE_") and name not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    home, data_home, elsewhere = tmp_path / "home", tmp_path / "xdg", tmp_path / "elsewhere"
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(data_home), "TABLEJUDGE_LOG_LEVEL": "warning"}
    elsewhere.mkdir()
    return User(env, home, data_home, elsewhere)


@pytest.mark.slow
def test_the_installed_package_is_the_wheels_not_the_checkouts(venv: Path, user: User) -> None:
    where = "import indexes.paths as p, service, tablejudge; print(p.__file__, service.__file__, p.wordlists_dir())"
    printed = run([venv / "bin" / "python", "-c", where], cwd=user.elsewhere, env=user.env).stdout.split()
    assert all(path.startswith(str(venv / "lib")) for path in printed), printed
    assert printed[2].endswith("/indexes/wordlists")


@pytest.mark.slow
def test_the_installed_judge_works_from_any_folder(venv: Path, user: User) -> None:
    tablejudge = venv / "bin" / "tablejudge"
    bop = run([tablejudge, "bop", "WHMMY"], cwd=user.elsewhere, env=user.env)
    assert bop.stdout.startswith("VALID") and "whammy" in bop.stdout
    assert "building the 'standard' index" in bop.stderr and "100%" in bop.stderr  # on first use, with its bar
    assert (user.data_home / "tablejudge" / "indexes" / "standard" / "manifest.json").is_file()
    pdq = run([tablejudge, "pdq", "PNA", "--word", "painter"], cwd=user.elsewhere, env=user.env)
    assert pdq.stdout.startswith("NOT VALID (out_of_order)")
    assert "building" not in pdq.stderr  # the index built once is used
    word = run([tablejudge, "word", "whammy"], cwd=user.elsewhere, env=user.env)
    assert "noun: a serious or devastating setback" in word.stdout  # the packaged glosses
    site = user.home.parent / "site"  # the judge page as a static folder, from the package's page files
    run([tablejudge, "build-site", site], cwd=user.elsewhere, env=user.env)
    assert (site / "index.html").is_file() and (site / "static" / "offline" / "worker.js").is_file()
    assert "standard" in (site / "offline" / "index.json").read_text(encoding="utf-8")
    assert list(user.elsewhere.iterdir()) == []  # nothing written to the current folder
    assert not user.home.exists()  # all of it under XDG_DATA_HOME


@pytest.mark.slow
@pytest.mark.server
def test_the_installed_server_serves_the_api_and_the_pages(venv: Path, user: User, tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    log_path = tmp_path / "serve.log"
    command = [str(venv / "bin" / "tablejudge"), "serve", "--port", str(port), "--data", str(data)]
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=user.elsewhere, env=user.env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        health = healthy(server, base, STEP_TIMEOUT, log_path, timeout=2)  # it builds every lexicon's index first
        assert set(health.json()["lexicons"]) == {"standard", "complete"}
        with httpx.Client(base_url=base, timeout=10) as client:
            bop = client.get("/v1/bop/WHMMY")
            assert bop.status_code == 200 and bop.json()["words"][:1] == ["whammy"]
            word = client.get("/v1/words/whammy")
            assert word.status_code == 200 and word.json()["definition"] is not None
            for page in ("/", "/play"):
                answer = client.get(page)
                assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
                # Every file the page links (scripts, styles, icons, a manifest), relative or not, is served.
                links = re.findall(r'(?:src|href)="([^"#:]+)"', answer.text)
                assets = {urljoin(f"{base}{page}", link) for link in links}
                assert any("/static/" in asset for asset in assets), links
                for asset in assets:
                    assert client.get(asset).status_code == 200, asset
            assert client.get("/static/play/games/bop.js").status_code == 200  # a folder in a folder
        assert (data / "matches.sqlite3").is_file()  # the match database in the folder given
        assert (user.data_home / "tablejudge" / "indexes" / "complete" / "manifest.json").is_file()
    finally:
        stop(server, timeout=30)
    assert list(user.elsewhere.iterdir()) == []
