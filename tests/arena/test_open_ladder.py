"""The demo's always-open ladders from the command line: an author who has just signed up finds
the ladder with `arena leagues`, enters it with `arena enter`, and its first rated match is
played at once (eager tasks in the live server, built-in bots in-process)."""

from __future__ import annotations

import pytest

from tests.arena.test_server_commands import cli, login, server  # noqa: F401 - the fixture
from tournament.models import Bot, BotVersion, League, Match, RatingChange

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_author_enters_the_open_ladder_from_the_cli(server, capsys, settings) -> None:  # noqa: ANN001, F811
    from django.contrib.auth import get_user_model

    from tournament.services.demo import demo_ladder_name, demo_ladders

    settings.LADDER_REST_PAIR_GAMES = 1  # a short ladder: every pair once, then it rests
    house = {name: BotVersion.objects.get(bot__name=name) for name in ("random", "greedy")}
    (ladder,) = demo_ladders(modes=["duel"], versions=house)
    assert ladder.name == demo_ladder_name("duel") and ladder.status == League.Status.RUNNING
    assert ladder.format == League.Format.LADDER
    assert set(ladder.entries.values_list("bot_version__bot__name", flat=True)) == set(house)

    author = get_user_model().objects.get(username="author")
    bot = Bot.objects.create(name="whiskers", owner=author)
    BotVersion.objects.create(bot=bot, number=1, builtin="random", status="ready")
    login(capsys, server)
    code, out, err = cli(capsys, "leagues", "--status", "running")
    assert code == 0 and "Open duel ladder" in out, err
    code, out, err = cli(capsys, "enter", "Open duel ladder", "whiskers")
    assert code == 0 and "entered whiskers v1 in Open duel ladder" in out, err

    # The entry scheduled at once: whiskers has played (and been rated in) the ladder.
    played = Match.objects.filter(league=ladder, status=Match.Status.FINISHED,
                                  seats__bot_version__bot=bot)  # fmt: skip
    assert played.exists()
    assert RatingChange.objects.filter(league=ladder, bot_version__bot=bot).exists()
    code, out, err = cli(capsys, "ladder", "Open duel ladder")
    assert code == 0 and "whiskers" in out, err
    code, _, err = cli(capsys, "enter", "Open duel ladder", "whiskers")  # once is enough
    assert code == 3 and err.count("\n") == 1
