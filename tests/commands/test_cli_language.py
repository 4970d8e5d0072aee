"""``lanuno --help`` and its refusals speak the player's language: ``--lang`` first, else
the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""

from __future__ import annotations

import re

import pytest

from lanuno.cli import main

COMMANDS = ("sim", "host", "join", "screen", "play")


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    said = capsys.readouterr()
    return status, said.out, said.err


@pytest.mark.usefixtures("french")
def test_the_help_is_french_in_a_french_environment(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "join", "--help")
    assert status == 0
    assert out.startswith("utilisation : lanuno join [-h]")
    assert "affiche cette aide et quitte" in out
    assert "le code de salle affiché sur l'écran partagé" in out
    assert "usage:" not in out
    assert "show this help" not in out


@pytest.mark.usefixtures("english")
def test_lang_on_the_command_line_comes_before_the_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "utilisation : lanuno play" in run(capsys, "play", "--lang", "fr", "--help")[1]
    assert "utilisation : lanuno play" in run(capsys, "play", "--lang=fr", "--help")[1]
    out = run(capsys, "play", "--help")[1]
    assert out.startswith("usage: lanuno play")
    assert "show this help message and exit" in out


@pytest.mark.usefixtures("french")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("join", "--age", "300"), "argument --age : un âge est un nombre entier de 0 à 120"),
        (("join", "--table", "0"), "argument --table : un numéro de table va de 1 à 64"),
        (("host", "--bot-delay", "soon"), "un nombre de secondes, 0 ou plus, était attendu"),
        (("host", "--peer-timeout", "0"), "un nombre de secondes au-dessus de 0"),
        (("play", "--preset", "nope"), "argument --preset : choix inconnu : 'nope'"),
        (("play", "--zzz"), "arguments inconnus : --zzz"),
        (("play", "--players"), "argument --players : une valeur est attendue"),
        (("play", "--pl"), "option ambiguë : --pl peut être --players, --plain"),
        (("play", "--kid=yes"), "argument --kid : ne prend pas de valeur ('yes')"),
        (("sim", "--games", "x"), "argument --games : valeur invalide (int) : 'x'"),
        (("play", "--lang", "de"), "langue inconnue 'de' : choisir parmi en, fr"),
        (("host", "--level", "wizard"), "Niveau inconnu «wizard» : choisissez beginner,"),
        (("sim", "--level", "expert,wizard"), "Niveau inconnu «wizard»"),
        (("join", "--name", " "), "argument --name : un nom ne peut pas être vide"),
        (("play", "--option", "teleport=on"), "Option inconnue «teleport»"),
        (("play", "--option", "stacking=sometimes"), "L'option «stacking» prend on|off."),
        (
            ("play", "--option", "hand_limit=3"),
            "Ces options ne vont pas ensemble : «hand_limit» ne peut pas être sous «hand_size».",
        ),
        (("play", "--option", "move_timer=5"), "Hors limites : «move_timer» va de 20 à 60"),
        (("play", "--players", "11"), "argument --players : une table a de 2 à 10 places"),
        (("sim", "--players", "1"), "une table a de 2 à 10 places, pas '1'"),
    ],
)
def test_a_refusal_is_french_too(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert said in err, err
    assert "utilisation :" in err
    assert "error:" not in err


@pytest.mark.usefixtures("english")
def test_an_english_refusal_keeps_argparse_words(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "join", "--age", "300")
    assert status == 2
    assert "lanuno join: error: argument --age: an age is a whole number from 0 to 120" in err


@pytest.mark.usefixtures("french")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_wrapped_french_help_line_never_begins_with_its_punctuation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = run(capsys, command, "--help")[1]
    assert "utilisation : lanuno " + command in out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert not [line for line in lines if re.match(r"\s*[:;?!»]", line) or line.endswith("«")]


@pytest.mark.usefixtures("english")
@pytest.mark.parametrize("option", ["target=5000000000", "hand_limit=99999999999", "hand_limit=3"])
def test_a_rules_refusal_is_one_line_under_the_commands_own_usage(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """A target too big for the wire crashed ``lanuno play`` with a traceback; a rules
    refusal showed the top-level usage (``lanuno [-h] [--version] {sim,...}``)."""
    status, _, err = run(capsys, "play", "--option", option)
    assert status == 2
    assert err.startswith("usage: lanuno play "), err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("lanuno play: error: ")
