"""Every sentence the terminal apps show, in English and French.

A :class:`Translator` formats a catalogue entry by key: ``tr("drew", name="Lea", count=2)``.
The language comes from the ``lang`` argument of the apps, else from the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. Plural forms are
separate keys (``card_one`` / ``card_many``) picked by :meth:`Translator.plural`, which is
enough for these two languages.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

LANGUAGES = ("en", "fr")

EN: dict[str, str] = {
    # colors and card words (cards.py has the English originals: Card.words)
    "color.R": "red",
    "color.Y": "yellow",
    "color.G": "green",
    "color.B": "blue",
    # A color after a Skip or Reverse: French makes it agree (la Passe, l'Inversion).
    "color_f.R": "red",
    "color_f.Y": "yellow",
    "color_f.G": "green",
    "color_f.B": "blue",
    "letter.R": "R",
    "letter.Y": "Y",
    "letter.G": "G",
    "letter.B": "B",
    "chip.S": "Sk",
    "chip.R": "Rv",
    "rank.S": "Skip",
    "rank.R": "Reverse",
    "rank.+2": "Draw Two",
    "rank.W": "Wild",
    "rank.W+4": "Wild Draw Four",
    "rank.X": "Blank",
    "card.colored": "{color} {rank}",
    "card_one": "{count} card",
    "card_many": "{count} cards",
    "seat_name": "Seat {seat}",
    "you_suffix": "{name} (you)",
    # connection
    "conn.connecting": "connecting...",
    "conn.connected": "connected",
    "conn.quiet": "no answer from the host...",
    "conn.reconnecting": "reconnecting...",
    "conn.closed": "disconnected",
    # headers and table
    "app.title": "lanuno",
    "header.round": "round {round}",
    "header.check": "check {check}",
    "table.top": "Top",
    "table.color": "color:",
    "table.no_color": "no color yet",
    "table.direction.cw": "clockwise",
    "table.direction.ccw": "counter-clockwise",
    "table.draw_pile": "draw pile {count}",
    "table.uno": "UNO!",
    "table.exposed": "catch!",
    "table.timer": "{seconds} s",
    "table.pending": "+{count} pending",
    # client prompts by phase
    "prompt.turn": "Your turn: play a card or draw.",
    "prompt.turn_play": "Your turn: play a card.",
    "prompt.turn_draw": "Your turn: no card fits, draw one.",
    "prompt.drawn": "You drew a card that fits: play it, or pass.",
    "prompt.drawn_must": "You drew a card that fits: play it.",
    "prompt.choose_color": "Choose the color to play on.",
    "prompt.penalty": "{count} are coming your way: take them, stack, or challenge.",
    "prompt.penalty_simple": "{count} are coming your way: take them.",
    "prompt.penalty_stack": "{count} are coming your way: take them, or stack.",
    "prompt.penalty_challenge": "{count} are coming your way: take them, or challenge.",
    "prompt.gift": "Give away the cards you drew.",
    "prompt.choose_target": "Choose who receives the penalty.",
    "prompt.swap": "Choose a player to swap hands with.",
    "prompt.excess": "Too many cards: return one under the draw pile.",
    "prompt.excess_count": "Too many cards, {limit} at most: return {count} under the draw pile.",
    "prompt.wait": "Waiting for {name}...",
    "prompt.closed": "This game is over for you (the log says why): press Q to leave.",
    "prompt.saved": "The host saved the table: run lanuno join again when it resumes. Q to leave.",
    "prompt.jump_in": "You can jump in: choose {card} and press Enter.",
    "prompt.watching": "You are watching: you will be seated when this game ends.",
    "prompt.round_over": "The round is over.",
    "prompt.timer": "{seconds} s left",
    "prompt.catch": "{name} did not say UNO: catch them with K!",
    "prompt.selected": "Selected: {card}",
    "prompt.say_uno": "Press U to say UNO!",
    "prompt.not_legal": "(not playable now)",
    # hand
    "hand.title": "Your hand ({count})",
    "hand.empty": "(no cards)",
    "hand.legend": "[ ] playable  ^ selected  arrows/1-9 choose  Enter plays",
    "hand.legend_excess": "[ ] may go back  ^ selected  arrows/1-9 choose  Enter returns",
    # pickers
    "picker.color": "Color for {card}:",
    "picker.color_phase": "Choose a color:",
    "picker.gift_first": "Who gets the first card?",
    "picker.gift_second": "Who gets the second card?",
    "picker.gift_one": "Who gets the card?",
    "picker.gift_card": "Who gets {card}?",
    "picker.target": "Who receives the penalty?",
    "picker.swap": "Swap hands with whom?",
    "picker.hint": "a number chooses (or arrows, then Enter), Esc cancels",
    "picker.hint_color": "R Y G B chooses (or arrows, then Enter), Esc cancels",
    "picker.hint_owed": "a number chooses (or arrows, then Enter)",
    "picker.hint_color_owed": "R Y G B chooses (or arrows, then Enter)",
    # keys
    "key.draw": "draw",
    "key.pass": "pass",
    "key.uno": "UNO!",
    "key.catch": "Counter-UNO",
    "catch.nobody": "Nobody to catch: no player has one card without having said UNO.",
    "key.challenge": "challenge",
    "key.accept": "take",
    "key.ready": "I'm ready",
    "key.not_ready": "not ready yet",
    "key.quit": "quit",
    # lobby (client)
    "lobby.title": "Lobby: {table}",
    "lobby.waiting": "Waiting for the host to start the game.",
    "lobby.auto_start": "The game starts as soon as every player is ready.",
    "lobby.you_are": "You are {name}, seat {seat}.",
    "lobby.check": "Your check number: {check}. It must match the one next to your name "
    "on the shared screen.",
    "lobby.ready": "ready",
    "lobby.not_ready": "not ready",
    "lobby.bot": "bot",
    "lobby.kid": "kid",
    "lobby.empty": "(empty)",
    "lobby.offline": "offline",
    "lobby.preset": "Rules: {preset}",
    # preset names as shown (the words typed to pick one stay the English ones)
    "preset.official": "official",
    "preset.kids1": "kids1",
    "preset.kids2": "kids2",
    "lobby.press_ready": "Press R when you are ready.",
    "lobby.you_are_ready": "You are ready (R if you are not after all).",
    "lobby.press_ready_local": "Press R to start the next game.",
    "lobby.closed_leave": "Press Q to leave.",
    # round and game end
    "end.round_title": "Round {round} is over",
    "end.round_winner": "{name} wins the round and scores {points}.",
    "end.round_nowinner": "Nobody won this round.",
    "end.game_title": "Game over",
    "end.game_winner": "{name} wins the game!",
    "end.game_nowinner": "The game ended without a winner.",
    "end.next_round": "Waiting for the next round...",
    "end.col_player": "Player",
    "end.col_score": "Score",
    "end.next_game": "Press Enter for the lobby, where the next game gathers (R: there, and "
    "ready), or Q to leave.",
    "end.next_game_local": "Press Enter, then R to play another game, or Q to leave.",
    # errors and closing
    "error.refused": "Refused: {text}",
    "error.refused_sentence": "Refused. {text}",
    "error.rule": "(rule {rule})",
    "bye.reason": "The host closed the connection: {reason}",
    "bye.saved": "The host saved the table and closed it. If it resumes the table, run "
    "lanuno join again: you get your seat and hand back.",
    "reason.room_code": "the room code is wrong (or the host refused this connection)",
    "reason.nobody": "nobody answers at that address (is the host running?)",
    "reason.timeout": "the host did not answer in time",
    "reason.other_table": "another table answers at this address",
    "reason.gone": "the host did not come back",
    "reason.full": "the table is full",
    "reason.spectators": "too many spectators ({number})",
    "reason.no_table": "the host has no table {number}",
    "reason.version": "no common message version",
    "reason.kicked": "removed by the host",
    "reason.closed": "the host closed the table",
    "reason.closed_saved": "the host closed the table and saved it",
    "reason.paused": "the host paused the table: it could not save the game (you keep your seat)",
    "reason.not_yours": "that seat is not yours now",
    "reason.elsewhere": "this seat resumed on another connection",
    "reason.unavailable": "seat unavailable",
    "reason.no_seat": "the host holds no such seat for this ticket",
    "reason.stale": "key confirmation failed: stale resume",
    "reason.rate": "too many messages",
    "reason.rotated": "the room code changed during the handshake",
    "reason.technical": "{text}",
    "notice.seat_lost": "The host no longer holds this seat; joining the table again.",
    "notice.host_still_lost": (
        "The host has not answered for {minutes} minutes: still trying. If you leave, your "
        "seat stays saved on this computer, and lanuno join takes it back."
    ),
    "notice.fairness": "This round's deck does not check out: {reason}",
    "join.looking": "looking for tables on the LAN (3 s)...",
    "join.waiting_seat": "your seat at {table} is waiting for you",
    "join.none": "no table found; ask the host for its address: lanuno join HOST:PORT",
    "join.table": "{name}  (table {number} at {address})  {free} seats free, {preset} rules",
    "join.table_playing": "{name}  (table {number} at {address})  in a game: watch it, "
    "play the next",
    "join.stale": "  (not answering)",
    "join.choose": "choose 1-{count}: ",
    "join.choose_again": "type a number from 1 to {count} (Enter alone leaves)",
    "join.choose_one": "press Enter for this table (Ctrl-C leaves): ",
    "join.choose_one_again": "there is only this table: press Enter for it, or Ctrl-C to leave",
    "join.gone": "that table does not answer any more; choose another",
    "join.loopback": "Only loopback is available: looking on this machine only.",
    "terminal.not_a_tty": "The input is not a terminal: playing line by line (as with --plain).",
    "join.resuming": "resuming your seat {seat} at {address}",
    "join.resume_failed": "{reason}; joining with the room code instead",
    "join.seat_damaged": "a saved seat could not be read: it is set aside as {path}",
    "join.code": "room code (on the shared screen): ",
    "code.format": "a code is 6 digits, like 482 915",
    "join.failed": "could not join {address}: {reason}",
    "join.hall_hint": "the host's screen lists its tables; a bare lanuno join lists every "
    "table on the LAN",
    "join.table_hint": "if this host has several tables, add --table N (N is the number of "
    "your table on the host's screen)",
    "join.table_code_hint": "each table of a hall has its own room code: is this the one on "
    "the shared screen of table {number}?",
    "reason.screen_code": "the screen code is wrong (it is shown on the host's own screen)",
    "reason.link_ended": "the host ended the link",
    "screen.none": "no table found; ask the host for its address: lanuno screen HOST:PORT",
    "screen.table": "{name}  (table {number} at {address})",
    "screen.link_lost": "The link to the host dropped: pairing again...",
    "screen.link_back": "Paired with the host again.",
    "screen.code": "screen code (on the host's screen): ",
    "screen.failed": "could not pair with {address}: {reason}",
    "screen.paired": "paired with table {number} at {address}",
    "screen.ended": "The link ended: {reason}.",
    "screen.saved": "The host saved the table and closed it. When it resumes the table, run "
    "lanuno screen again (its screen code is on the host).",
    "bye.closed": "The connection is closed.",
    "bye.ended": "The connection is closed: {reason}.",
    "bye.failed": "The connection failed: {reason}",
    # events
    "ev.round_started": "Round {round} starts; {name} deals {count} each.",
    "ev.card_turned": "The first card is {card}.",
    "ev.card_returned": "{card} went back into the deck.",
    "ev.played": "{name} played {card}.",
    "ev.jumped_in": "{name} jumped in with {card}.",
    "ev.played_chose": "{name} played {card} and chose {color}.",
    "ev.color_chosen": "{name} chose {color}.",
    "ev.drew_one": "{name} drew a card.",
    "ev.drew_many": "{name} drew {count}.",
    "ev.drew_penalty": "{name} took the penalty: {count}.",
    "ev.drew_caught": "{name} was caught and drew {count}.",
    "ev.drew_challenge": "{name} drew {count} after the challenge.",
    "ev.drew_timeout": "{name} ran out of time and drew {count}.",
    "ev.drew_gift": "{name} drew {count} to give away.",
    "ev.passed": "{name} passed.",
    "ev.skipped": "{name} is skipped.",
    "ev.direction_cw": "Play goes clockwise now.",
    "ev.direction_ccw": "Play goes counter-clockwise now.",
    "ev.reshuffled": "The discard pile was shuffled into a new draw pile ({count}).",
    "ev.reshuffled_stalled": (
        "Nobody could play: the draw and discard piles were shuffled together ({count})."
    ),
    "ev.my_seed_unused": (
        "Round {round} was shuffled without your seed (it did not reach the host in time); "
        "the deck still checks out against the seeds that were used."
    ),
    "ev.penalty_pending": "{name} faces {count}.",
    "ev.uno_declared": "{name} says UNO!",
    "ev.uno_exposed": "{name} has one card and did not say UNO.",
    "ev.counter_uno_caught": "{caller} caught {target} without UNO!",
    "ev.counter_uno_missed": "{caller} called Counter-UNO on {target}: nothing to catch.",
    "ev.challenged_bluff": "{challenger} challenged {target}: it was a bluff!",
    "ev.challenged_fair": "{challenger} challenged {target}: the Wild Draw Four was fair.",
    "ev.gave": "{name} gave cards to {recipients}.",
    "ev.hands_swapped": "{name} swapped hands with {target}.",
    "ev.hands_rotated": "Everyone passed their hand on.",
    "ev.pile_dealt_out": "{name} dealt the discard pile out to everyone.",
    "ev.pile_dealt_out_none": "{name} played a Blank: the discard pile had no card to deal out.",
    "ev.cards_returned": "{name} returned {count} under the draw pile.",
    "ev.timed_out": "{name} ran out of time.",
    "ev.autopilot_on": "A bot plays for {name} until they come back.",
    "ev.autopilot_off": "{name} is back.",
    "ev.round_ended": "{name} wins the round: {points}.",
    "ev.game_ended": "{name} wins the game!",
    "ev.hand_dealt": "You were dealt {cards}.",
    "ev.cards_drawn": "You drew {cards}.",
    "ev.cards_received": "You received {cards} from {name}.",
    "ev.hand_revealed": "{name}'s hand was {cards}.",
    "ev.other": "{type}",
    # shared screen
    "host.join_how": "To join, type:",
    "host.join_code": "Room code",
    "host.join_lan": "or just: lanuno join  (finds this table on the LAN)",
    "host.players": "Players",
    "host.no_address": "(no address yet)",
    "host.loopback_only": "Only this machine can join: the table is on loopback alone. "
    "For the other laptops, connect this one to the room's Wi-Fi or a cable, and leave out "
    "--interface 127.0.0.1 if it was given.",
    "host.options": "Options",
    "host.rules": "Rules",
    "host.preset": "Preset: {preset}",
    "host.bot_level": "New bots: {level}",
    "host.keys_lobby": "B add bot  L level  Del remove  P preset  O options  S start  Q quit",
    "host.keys_options": "Up/Down option  Enter/Space change  Esc back",
    "host.keys_play": "Q quit",
    "host.keys_between": "S next round  Del kick  Q quit",
    "host.keys_game_end": "S new game  Enter lobby  Del kick  Q quit",
    "host.cannot_start": "Waiting for players (a game needs at least 2 seats).",
    "host.can_start": "The table is ready: press S to start.",
    "host.last_events": "Last events",
    "host.winner": "WINNER",
    "host.value.on": "on",
    "host.value.off": "off",
    "host.value.none": "none",
    "host.value.one_round": "none (one round)",
    "host.value.challenge": "challenge",
    "host.value.strict": "strict",
    "host.value.free": "free",
    "host.option_value": "{name}: {value}",
    # option names (engine rule keys)
    "opt.stacking": "Stack Draw Twos (T1)",
    "opt.seven_o": "Seven-O swaps (T5)",
    "opt.jump_in": "Jump in (T6)",
    "opt.draw_until_playable": "Draw until playable (T7)",
    "opt.wild_draw_four": "Wild Draw Four",
    "opt.target": "Points to win",
    "opt.move_timer": "Move timer (s)",
    "opt.kids_immune_to_counter_uno": "Kids immune to Counter-UNO (KA1)",
    "opt.adults_draw_until_playable": "Adults draw until playable (KA2)",
    "opt.kids_stack": "Kids may stack (KA3)",
    "opt.kids_choose_target": "Kids choose the target (KA4)",
    "opt.kids_hit_all_adults": "Kids hit all adults (KA5)",
    # the lobby's rule summary: rules the host sets with --option, not from its option list
    "rules.rounds_to_win": "Rounds to win",
    "rules.deck.standard": "Deck: all 108 cards",
    "rules.deck.numbers": "Deck: numbers only",
    "rules.deck.with_blanks": "Deck: 4 blank cards added",
    "rules.hand_size": "Cards dealt: {count}",
    "rules.hand_limit": "Hand limit: {count}",
    "rules.hand_limit.none": "Hand limit: none",
    "rules.first_player.youngest": "The youngest plays first",
    "rules.first_player.left_of_dealer": "Left of the dealer plays first",
    "rules.voluntary_draw.on": "Draw even when you can play",
    "rules.voluntary_draw.off": "Draw only when stuck",
    "rules.must_play_drawn.on": "A drawn card that fits is played",
    "rules.must_play_drawn.off": "A drawn card that fits may be kept",
    "rules.draw_when_stuck": "Draw only when stuck and play it if it fits",
    "rules.counter_uno.on": "Counter-UNO: on",
    "rules.counter_uno.off": "Counter-UNO: off",
    "rules.draw_two_gift.on": "Draw Two: draw 2 and give them away",
    "rules.draw_two_gift.off": "Draw Two: the next player draws 2",
    "level.beginner": "beginner",
    "level.intermediate": "intermediate",
    "level.expert": "expert",
    # plain (line-based) client and headless log
    "plain.help": (
        "Type an action ({actions}; seats count from 1; {letters}), or the number of one "
        "listed under 'You may', or: ready, state, help, quit."
    ),
    "plain.help_example": "{action}",
    "plain.letters": "R red, Y yellow, G green, B blue",
    "plain.letters_actions": "R red, Y yellow, G green, B blue; after the color: S Skip, "
    "R Reverse, +2 Draw Two; W Wild, W+4 Wild Draw Four",
    # the line client's verbs (ui/typed.py): typed in either language
    "verb.play": "play",
    "verb.draw": "draw",
    "verb.pass": "pass",
    "verb.color": "color",
    "verb.challenge": "challenge",
    "verb.accept": "accept",
    "verb.uno": "uno",
    "verb.catch": "catch",
    "verb.give": "give",
    "verb.target": "target",
    "verb.swap": "swap",
    "verb.return": "return",
    "plain.welcome": "Welcome to {table} ({preset}): you are seat {seat}.",
    "plain.rules": "Rules: {preset}. {rules}.",
    "plain.welcome_watch": (
        "Welcome to {table} ({preset}): you are watching; you will be seated when this game ends."
    ),
    "plain.lobby": "Lobby: {seats}. Type 'ready' when you are.",
    "plain.lobby_ready": "Lobby: {seats}.",
    "plain.at_table": "At the table: {seats}.",
    "plain.seat_cards": "{seat}: {cards}",
    "plain.hand": "Your hand: {cards}",
    "plain.may": "You may: {choices}",
    "plain.choose": "Choose 1 to {count}.",
    "plain.choose_one": "Only 1 is offered: type 1 for it.",
    "plain.give_two": "('{example}' gives the first card you drew to seat {first}, the second "
    "to seat {second}.)",
    "plain.not_at_table": "'{text}' is not played at this table.",
    "plain.ready_in_game": "The game is under way: 'ready' is for the lobby, between games.",
    "plain.nothing_to_choose": "There is nothing for you to do now: wait for your turn.",
    "plain.sent_later": (
        "the host is not answering: this is sent when it is back (and refused if the table "
        "has moved on meanwhile)"
    ),
    "plain.not_an_action": "'{text}' is not an action: type one like play R7 or draw, the "
    "number of one listed, or help.",
    "plain.needs_seat": "'{text}' needs a seat number, counted from 1: {example}.",
    "plain.needs_card": "'{text}' needs a card: {example}.",
    "plain.needs_color": "'{text}' needs a color: {example}.",
    "plain.scores": "Scores: {scores}.",
    "plain.away": "{name} is away: the seat is held until they come back.",
    "plain.back": "{name} is back (check number {check}).",
    "plain.reconnecting": "The connection to the host dropped: reconnecting...",
    "plain.reconnected": "Connected to the host again.",
    # second person: the player's own seat ("You win the round", never "You wins")
    "you_object": "you",
    "log.mid_round": "Round {round} is under way; the top card is {card}.",
    "log.went_on": "While you were disconnected the round went on: the top card is {card}, "
    "and you hold {cards}.",
    "log.away": "While you were disconnected:",
    "log.back": "You are back at the table.",
    "log.lobby": "lobby: {seats}  {code}",
    # the headless host's first lines (the words typed stay the commands' own)
    "host.log.journal": "journal: {path} (restart with: lanuno host --resume {path})",
    "host.log.kept_interface": "served on {address} only, as before the restart",
    "host.log.kept_no_mdns": "not announced on the network (--no-mdns), as before the restart",
    "host.log.saved": "the table is saved: lanuno host --resume {path} carries it on, and "
    "its players get their seats back with lanuno join",
    "host.log.saved_tables": "the {count} tables are saved: lanuno host --resume {path} "
    "carries them on, and their players get their seats back with lanuno join",
    "host.log.port_taken": "port {port}, where the table was, is taken: its players must join "
    "again (lanuno join), at the address below",
    "host.log.table": "table {name} at {addresses}  room code {code}",
    "host.log.join_with": "players join with: {command}",
    "host.log.loopback": (
        "Only loopback is served: only this machine can join. For the other laptops, "
        "connect this one to a network (Wi-Fi, cable) and serve it (no --interface, or its "
        "address)."
    ),
    "host.log.screen_code": "screen code {code} for table {number}: {command}",
    "host.log.hall_table": "table {number} {name}  room code {code}",
    "host.log.hall_join": "players: {command}",
    "play.default_name": "Player",
    "play.table_name": "Practice table",
    "key.yes": "y",
    "point_one": "{count} point",
    "point_many": "{count} points",
    "ev.round_started.you": "Round {round} starts; you deal {count} each.",
    "ev.played.you": "You played {card}.",
    "ev.jumped_in.you": "You jumped in with {card}.",
    "ev.played_chose.you": "You played {card} and chose {color}.",
    "ev.color_chosen.you": "You chose {color}.",
    "ev.drew_one.you": "You drew a card.",
    "ev.drew_many.you": "You drew {count}.",
    "ev.drew_penalty.you": "You took the penalty: {count}.",
    "ev.drew_caught.you": "You were caught and drew {count}.",
    "ev.drew_challenge.you": "You drew {count} after the challenge.",
    "ev.drew_timeout.you": "You ran out of time and drew {count}.",
    "ev.drew_gift.you": "You drew {count} to give away.",
    "ev.passed.you": "You passed.",
    "ev.skipped.you": "You are skipped.",
    "ev.penalty_pending.you": "You face {count}.",
    "ev.uno_declared.you": "You say UNO!",
    "ev.uno_exposed.you": "You have one card and did not say UNO!",
    "ev.counter_uno_caught.you": "You caught {target} without UNO!",
    "ev.counter_uno_caught.you_target": "{caller} caught you without UNO!",
    "ev.counter_uno_missed.you": "You called Counter-UNO on {target}: nothing to catch.",
    "ev.counter_uno_missed.you_target": "{caller} called Counter-UNO on you: nothing to catch.",
    "ev.challenged_bluff.you": "You challenged {target}: it was a bluff!",
    "ev.challenged_bluff.you_target": (
        "{challenger} challenged you and saw your hand: it was a bluff!"
    ),
    "ev.challenged_fair.you": "You challenged {target}: the Wild Draw Four was fair.",
    "ev.challenged_fair.you_target": (
        "{challenger} challenged you and saw your hand: your Wild Draw Four was fair."
    ),
    "ev.gave.you": "You gave cards to {recipients}.",
    "ev.hands_swapped.you": "You swapped hands with {target}.",
    "ev.hands_swapped.you_target": "{name} swapped hands with you.",
    "ev.pile_dealt_out.you": "You dealt the discard pile out to everyone.",
    "ev.pile_dealt_out_none.you": "You played a Blank: the discard pile had no card to deal out.",
    "ev.cards_returned.you": "You returned {count} under the draw pile.",
    "ev.timed_out.you": "You ran out of time.",
    "ev.autopilot_on.you": "A bot plays for you until you make a move yourself.",
    "ev.autopilot_off.you": "You are back.",
    "ev.round_ended.you": "You win the round: {points}.",
    "ev.game_ended.you": "You win the game!",
    "ev.hand_revealed.you": "Your hand was shown: {cards}.",
    # a move a bot made in the reader's seat while they were away (a resumed seat's events)
    "ev.played.bot": "A bot played your {card} for you.",
    "ev.jumped_in.bot": "A bot jumped in with your {card} for you.",
    "ev.played_chose.bot": "A bot played your {card} for you and chose {color}.",
    "ev.color_chosen.bot": "A bot chose {color} for you.",
    "ev.drew_one.bot": "A bot drew a card for you.",
    "ev.drew_many.bot": "A bot drew {count} for you.",
    "ev.drew_penalty.bot": "A bot took the penalty for you: {count}.",
    "ev.drew_challenge.bot": "A bot challenged for you and drew {count}.",
    "ev.drew_gift.bot": "A bot drew {count} for you to give away.",
    "ev.passed.bot": "A bot passed for you.",
    "ev.uno_declared.bot": "A bot said UNO for you!",
    "ev.counter_uno_caught.bot": "A bot caught {target} without UNO for you!",
    "ev.counter_uno_missed.bot": "A bot called Counter-UNO on {target} for you: nothing to catch.",
    "ev.challenged_bluff.bot": "A bot challenged {target} for you: it was a bluff!",
    "ev.challenged_fair.bot": "A bot challenged {target} for you: the Wild Draw Four was fair.",
    "ev.gave.bot": "A bot gave your cards to {recipients}.",
    "ev.hands_swapped.bot": "A bot swapped your hand with {target}.",
    "ev.pile_dealt_out.bot": "A bot dealt the discard pile out to everyone for you.",
    "ev.pile_dealt_out_none.bot": (
        "A bot played a Blank for you: the discard pile had no card to deal out."
    ),
    "ev.cards_returned.bot": "A bot returned {count} under the draw pile for you.",
    "ev.cards_drawn.bot": "A bot drew {cards} for you.",
    "end.round_winner.you": "You win the round and score {points}.",
    "end.game_winner.you": "You win the game!",
    # round summary
    "end.continue": "Press Enter to continue.",
    "end.next_started": "Round {round} has started: press Enter to play.",
    # seats: presence, bots
    "bot_name": "Bot {number} ({level})",
    "status.away": "away",
    "status.bot": "bot playing",
    "status.check": "check {check}",
    # help, quitting, scrolling, small terminals
    "key.help": "help",
    "key.log": "log",
    "help.title": "Keys",
    "help.h.screen": "Another screen for this table (a TV, another laptop):",
    "help.close": "Press any key to close this help.",
    "help.c.cards": "Left/Right or 1-9, 0: choose a card",
    "help.c.enter": "Enter or Space: play it (a wild asks for its color)",
    "help.c.enter_numbers": "Enter or Space: play it",
    "help.c.basic": "D draw  P pass  U say UNO!",
    "help.c.basic_no_pass": "D draw  U say UNO!",
    "help.c.catch": "K Counter-UNO: catch a player who forgot to say UNO",
    "help.c.challenge": "C challenge a Wild Draw Four",
    "help.c.take": "A take the penalty",
    "help.c.scroll": "PgUp/PgDn: scroll the log",
    "help.c.misc": "R ready (lobby)  Q leave the table  ? this help",
    "help.h.lobby": "Lobby: B add a bot, L bot level, Del remove or kick, P preset, O options",
    "help.h.start": "S start the game, the next round, or a new game after the last",
    "help.h.between": "Between rounds: Del kicks the selected player; Enter on the winner: lobby",
    "help.h.scroll": "PgUp/PgDn: scroll the events",
    "help.h.misc": "Q close the table  ? this help",
    "help.r.watch": "This screen follows the table: only the host's own screen changes it",
    "help.r.between": "Enter on the winner: the lobby (shown too once a player is ready)",
    "help.r.misc": "Q close this screen  ? this help",
    "quit.confirm": "Leave the game? Press Y to leave, any other key to stay.",
    "quit.confirm_local": "Leave? This game will be lost. Press Y to leave, any other key to stay.",
    "quit.seat_kept": "You left {table} during a game: your seat is kept (a bot plays it "
    "meanwhile). Run lanuno join again to take it back.",
    "quit.confirm_host": (
        "Close the table for all (it stays saved)? Y to close, any other key to stay."
    ),
    "log.scrolled": "(older lines: PgDn for the newest)",
    "small.title": "This window is too small for lanuno.",
    "small.need": "Make the window bigger: at least {width} x {height} (now {now_w} x {now_h}).",
    "small.quit": "Ctrl-C quits.",
    "host.code_rotated": "Too many wrong codes: the room code is now {code}.",
    "table.waiting_players": "Waiting for the players to come back.",
    "header.code": "code {code}",
    # refusals (the engine's sentences, by meaning; see lanuno/ui/refusals.py)
    "refusal.generic": "That is not possible now.",
    "refusal.not_an_action": "That is not an action of this game.",
    "refusal.no_seat": "There is no such seat at this table.",
    "refusal.round_over": "The round is over.",
    "refusal.game_over": "The game is over.",
    "refusal.round_running": "The round is still being played.",
    "refusal.not_your_turn": "It is not your turn: waiting for {name}.",
    "refusal.not_now": "Not now: {what}.",
    "refusal.not_a_card": "That is not a card.",
    "refusal.wild_color": "Only a wild card takes a color, and it must be a color.",
    "refusal.not_held": "You do not hold {card}.",
    "refusal.drawn_only": "After drawing you may play only the card you drew.",
    "refusal.wd4_held_color": (
        "You hold a {color} card: Wild Draw Four is only allowed when you have no card of "
        "the current color."
    ),
    "refusal.no_match": "{card} does not match {top} (the color is {color}).",
    "refusal.jump_late": "You can only jump in before the next player acts.",
    "refusal.jump_identical": "To jump in, play a card identical to the top card.",
    "refusal.no_stacking": "Stacking is not allowed here: accept the penalty.",
    "refusal.stack_what": "Only a Draw Two on a Draw Two, or a Wild Draw Four, can be stacked.",
    "refusal.drawn_already": "You have already drawn this turn.",
    "refusal.must_play": "You can play a card, so you may not draw.",
    "refusal.pass_after_draw": "You may pass only after drawing a card.",
    "refusal.drawn_fits": "The card you drew fits: it must be played.",
    "refusal.choose_color": "Choose red, yellow, green or blue.",
    "refusal.no_challenge_table": "Wild Draw Four cannot be challenged at this table.",
    "refusal.challenge_what": "Only a Wild Draw Four aimed at you can be challenged.",
    "refusal.no_penalty": "There is no penalty to accept.",
    "refusal.uno_already": "You have already said UNO.",
    "refusal.uno_when": "Say UNO with two cards before playing one, or with your last card.",
    "refusal.counter_other": "Call Counter-UNO on another player.",
    "refusal.no_counter_uno": "Counter-UNO is not played at this table.",
    "refusal.no_key": "That key is not used at this table: ? shows its keys.",
    "refusal.kids_immune": "Kids cannot be caught by Counter-UNO at this table.",
    "refusal.gift_count": "Name one recipient for each of the {count} you drew.",
    "refusal.gift_opponents": "Give the cards to your opponents.",
    "refusal.target_other": "Choose another player to receive the penalty.",
    "refusal.swap_other": "Choose another player to swap hands with.",
    "refusal.return_held": "Return a card that you hold.",
    "refusal.no_auto": "No automatic decision in this phase.",
    "refusal.timer_only": "Only the host's timer times out.",
    "refusal.no_round": "No round is being played right now.",
    "refusal.stale": "The table changed before your action arrived; look again.",
    "refusal.slow_down": "Too many messages: slow down.",
    "refusal.bad_notation": "That action was not understood.",
    # The host's own controls (the table app, the hall), refused by host/ and net/hall.
    "refusal.host.rules_lobby": "The rules can change in the lobby only.",
    "refusal.host.bots_lobby": "Bots can be added in the lobby.",
    "refusal.host.running": "The game is already running.",
    "refusal.host.two_seats": "A game needs at least 2 seats (add a bot?).",
    "refusal.host.full": "The table is full (10 seats).",
    "refusal.host.remove_between": "Players can be removed between rounds.",
    "refusal.host.bot_stays": "A bot keeps its seat until the game ends.",
    "refusal.host.remote_screen": (
        "This is a remote screen: the host's own screen changes the table."
    ),
    "refusal.host.hall_full": "A hall holds at most {count} tables.",
    "what.turn": "play a card or draw",
    "what.drawn": "play the card you drew, or pass",
    "what.choose_color": "choose a color for the wild",
    "what.penalty": "take the penalty (or stack, or challenge, where allowed)",
    "what.gift": "give away the two cards you drew",
    "what.choose_target": "choose who receives the penalty",
    "what.swap": "choose a player to swap hands with",
    "what.excess": "return your excess cards under the draw pile",
    "what.round_over": "the round is over",
    "chip.W": " W ",
    "chip.W+4": "W+4",
    "chip.X": " X ",
    "big.S": "S",
    "big.R": "R",
    "big.W": "W",
    # the hall: every table of this host (ui/hall_app.py)
    "hall.title": "the hall",
    "hall.join_how": "players and screens:",
    "hall.none": "No table is open. Press N to open one.",
    "hall.table": "table {number}",
    "hall.room_code": "room {code}",
    "hall.screen_code": "screen {code}",
    "hall.phase.lobby": "lobby",
    "hall.phase.playing": "round {round} in play",
    "hall.phase.between": "round {round} over",
    "hall.phase.game_over": "game over",
    "hall.phase.closed": "closed",
    "hall.phase.paused": "paused: its journal could not be written",
    "hall.turn": "{name} to play",
    "hall.waiting": "waiting for the players to come back",
    "hall.round_won": "won by {name}",
    "hall.game_won": "{name} wins",
    "hall.free_one": "{count} seat free",
    "hall.free_many": "{count} seats free",
    "hall.nobody": "nobody yet",
    "hall.more_above": "↑ {count} more above",
    "hall.more_below": "↓ {count} more below",
    "hall.keys": "Up/Down choose  Enter show  N new table  C close  Q quit",
    "hall.keys_form": "Up/Down field  Enter open the table  Esc cancel",
    "hall.confirm_close": (
        "Close table {number} ({table}) for everyone? Y closes it, any other key keeps it."
    ),
    "hall.confirm_quit": (
        "Close every table and quit? They stay saved for a --resume. Press Y to quit, any "
        "other key to stay."
    ),
    "hall.opened": "Table {number} is open.",
    "hall.closed": "Table {number} is closed.",
    "hall.form.title": "New table",
    "hall.form.name": "Name",
    "hall.form.preset": "Preset",
    "hall.form.options": "Options",
    "hall.form.bots": "Bots",
    "hall.form.level": "Bot level",
    "hall.form.hint.name": "at most {count} characters",
    "hall.form.hint.preset": "one of: {choices}",
    "hall.form.hint.options": "«name=value» words, for example: {choices}",
    "hall.form.hint.bots": "0 to {count}",
    "hall.form.hint.level": "one of: {choices}",
    "hall.form.default_name": "Table {number}",
    "hall.bad.name_blank": "Give the table a name.",
    "hall.bad.name_long": "A table name has at most {count} characters.",
    "hall.bad.preset": "Unknown preset «{value}»: choose {choices}.",
    "hall.bad.option_name": "Unknown option «{value}»: see lanuno {command} --help.",
    "hall.bad.option_value": "The option «{value}» takes {choices}.",
    "hall.bad.options_together": "These options do not fit together: {reason}.",
    "hall.bad.option_range": "Out of range: {reason}.",
    "rules.bad.hand_size": "hand_size must be between 1 and 15",
    "rules.bad.move_timer": "move_timer must be between 20 and 60 seconds, or none",
    "rules.bad.target": "target must be between 1 and 10000, or none for a single round",
    "rules.bad.hand_limit": "hand_limit cannot be below hand_size",
    "rules.bad.hand_limit_max": "hand_limit must be at most 112, the biggest deck",
    "rules.bad.round_wins": "target counts round wins at this table: at most 25",
    "hall.bad.bots": "Bots: a number from 0 to {count}, not «{value}».",
    "hall.bad.level": "Unknown bot level «{value}»: choose {choices}.",
    "hall.in.keys_lobby": "B add bot  L level  Del remove  P preset  O options  S start  Esc hall",
    "hall.in.keys_play": "Esc back to the hall",
    "screen.remote.keys": "Q close this screen",
    "screen.remote.can_start": "The table is ready: the host starts the game.",
    "screen.remote.auto_start": "The game starts as soon as every player is ready.",
    "hall.in.keys_between": "S next round  Del kick  Esc hall",
    "hall.in.keys_game_end": "S new game  Enter lobby  Del kick  Esc hall",
    "hall.in.help_misc": "Esc or Q back to the hall  ? this help",
    "cli.description": "UNO for a room full of laptops.",
    "cli.usage": "usage: ",
    "cli.positionals": "positional arguments",
    "cli.optionals": "options",
    "cli.help": "show this help message and exit",
    "cli.version": "show the version and exit",
    "cli.error": "{prog}: error: {message}",
    "cli.err.required": "the following arguments are required: {names}",
    "cli.err.choice": "argument {name}: invalid choice: {value} (choose from {choices})",
    "cli.err.unrecognized": "unrecognized arguments: {names}",
    "cli.err.expected": "argument {name}: expected one argument",
    "cli.err.ambiguous": "ambiguous option: {name} could match {names}",
    "cli.err.no_value": "argument {name}: ignored explicit argument {value}",
    "cli.err.value": "argument {name}: invalid {kind} value: {value}",
    "cli.err.argument": "argument {name}: {message}",
    "cli.err.age": "an age is a whole number from 0 to {max}",
    "cli.err.seconds": "expected a number of seconds, 0 or more, got {value}",
    "cli.err.positive": "expected a number of seconds above 0, got 0",
    "cli.err.table": "a table number is from 1 to {max}",
    "cli.err.players": "a table has {min} to {max} seats, not {value}",
    "cli.err.lang": "unknown language {value}: choose from {choices}",
    "cli.err.name_blank": "a name cannot be blank",
    "cli.err.name_chars": "{value}: a name is printable text, without control or direction "
    "characters",
    "cli.sim": "bots-only games in this process, with statistics",
    "cli.sim.games": "games to play (default: 100)",
    "cli.sim.players": "seats at each table (default: 4)",
    "cli.sim.seed": "the seed of the first game (default: 0)",
    "cli.sim.playouts": (
        "expert: sampled worlds per decision instead of its 150 (with no time cap: reproducible "
        "whatever the load)"
    ),
    "cli.sim.level": "bot level for all seats, or one per seat ({levels})",
    "cli.sim.progress": (
        "the progress bar on standard error: «auto» draws it on a terminal only (default: «auto»)"
    ),
    "cli.preset": "rule preset (default: «official»)",
    "cli.option": (
        "table option, repeatable: «stacking=on», «seven_o=on», «jump_in=on», "
        "«draw_until_playable=on», «wild_draw_four=strict», «target=200|300|500|none», "
        "«move_timer=30», «ka1..ka5=on»"
    ),
    "cli.host": "host a table on this LAN (shared screen)",
    "cli.host.name": (
        "table name (default: this computer's name; with «--tables»: the names' prefix, "
        "«Table 1», «Table 2»...)"
    ),
    "cli.host.tables": "host N tables on one port (a hall; its journal is a directory)",
    "cli.host.port": "TCP port (default: any free port)",
    "cli.host.bots": "bots to seat at start",
    "cli.host.level": (
        "level of the bots seated with «--bots», of those the screen adds (L changes it) and of "
        "the bots that play for dropped players (default: «intermediate»)"
    ),
    "cli.host.code": "room code to use instead of a random one (with «--tables»: every table's)",
    "cli.host.interface": "IPv4 address to serve and announce on (default: every LAN one)",
    "cli.host.headless": "log events instead of a screen",
    "cli.host.resume": "rebuild a table from its journal (a hall: «DIR»)",
    "cli.host.salvage": (
        "with «--resume»: restore a journal damaged in the middle up to the damage (a copy of the "
        "file is kept)"
    ),
    "cli.host.journal": "where to write the journal (a hall: «DIR»)",
    "cli.host.no_mdns": "do not announce on the LAN",
    "cli.host.round_pause": "headless: seconds between rounds",
    "cli.host.peer_timeout": "seconds of silence before a peer is gone",
    "cli.lang": "interface language («en», «fr»)",
    "cli.bot_delay": "seconds a bot waits before acting (default: human pace)",
    "cli.join": "join a table (lists tables on the LAN without «ADDRESS»)",
    "cli.join.name": "your name at the table (default: your login name)",
    "cli.join.code": "the room code shown on the shared screen",
    "cli.table": "the table number at «HOST:PORT» (default 1)",
    "cli.kid": "play as a kid (kids' options)",
    "cli.age": "your age: at kids' tables the youngest player starts",
    "cli.plain": "line-based client, no full screen",
    "cli.look_interface": "IPv4 address to look for tables on (default: every LAN one)",
    "cli.screen": "be a table's shared screen (pairs with the screen code on the host)",
    "cli.screen.code": "the table's screen code (shown on the host)",
    "cli.screen.headless": "a plain log, no full screen",
    "cli.play": "play against bots on this computer",
    "cli.play.players": "seats at the table, yours included (2 to 10, default 4)",
    "cli.play.level": "the bots' level (default: «intermediate»)",
    "cli.play.name": "your name at the table (default: Player, in your language)",
}

FR: dict[str, str] = {
    "color.R": "rouge",
    "color.Y": "jaune",
    "color.G": "vert",
    "color.B": "bleu",
    "color_f.R": "rouge",
    "color_f.Y": "jaune",
    "color_f.G": "verte",
    "color_f.B": "bleue",
    "letter.R": "R",
    "letter.Y": "J",
    "letter.G": "V",
    "letter.B": "B",
    "chip.S": "Pa",
    "chip.R": "In",
    "rank.S": "Passe",
    "rank.R": "Inversion",
    "rank.+2": "+2",
    "rank.W": "Joker",
    "rank.W+4": "Joker +4",
    "rank.X": "Carte vierge",
    "card.colored": "{rank} {color}",
    "card_one": "{count} carte",
    "card_many": "{count} cartes",
    "seat_name": "Place {seat}",
    "you_suffix": "{name} (vous)",
    "conn.connecting": "connexion...",
    "conn.connected": "connecté",
    "conn.quiet": "l'hôte ne répond pas...",
    "conn.reconnecting": "reconnexion...",
    "conn.closed": "déconnecté",
    "app.title": "lanuno",
    "header.round": "manche {round}",
    "header.check": "code de contrôle {check}",
    "table.top": "Pile",
    "table.color": "couleur :",
    "table.no_color": "pas encore de couleur",
    "table.direction.cw": "sens horaire",
    "table.direction.ccw": "sens antihoraire",
    "table.draw_pile": "pioche {count}",
    "table.uno": "UNO !",
    "table.exposed": "à attraper !",
    "table.timer": "{seconds} s",
    "table.pending": "+{count} en attente",
    "prompt.turn": "À vous : jouez une carte ou piochez.",
    "prompt.turn_play": "À vous : jouez une carte.",
    "prompt.turn_draw": "À vous : aucune carte ne convient, piochez.",
    "prompt.drawn": "La carte piochée convient : jouez-la, ou passez.",
    "prompt.drawn_must": "La carte piochée convient : jouez-la.",
    "prompt.choose_color": "Choisissez la couleur à jouer.",
    "prompt.penalty": "{count} pour vous : prenez-les, empilez ou contestez.",
    "prompt.penalty_simple": "{count} pour vous : prenez-les.",
    "prompt.penalty_stack": "{count} pour vous : prenez-les ou empilez.",
    "prompt.penalty_challenge": "{count} pour vous : prenez-les ou contestez.",
    "prompt.gift": "Donnez les cartes que vous avez piochées.",
    "prompt.choose_target": "Choisissez qui reçoit la pénalité.",
    "prompt.swap": "Choisissez avec qui échanger votre main.",
    "prompt.excess": "Trop de cartes : remettez-en une sous la pioche.",
    "prompt.excess_count": "Trop de cartes, {limit} au plus : remettez {count} sous la pioche.",
    "prompt.wait": "On attend {name}...",
    "prompt.closed": "La partie est finie pour vous (l'historique dit pourquoi) : Q pour partir.",
    "prompt.saved": "Table sauvegardée : relancez lanuno join à sa reprise. Q pour partir.",
    "prompt.jump_in": "Vous pouvez vous interposer : choisissez {card}, puis Entrée.",
    "prompt.watching": "Vous regardez : vous aurez une place à la fin de cette partie.",
    "prompt.round_over": "La manche est finie.",
    "prompt.timer": "encore {seconds} s",
    "prompt.catch": "{name} n'a pas dit UNO : contrez-le avec K !",
    "prompt.selected": "Choisie : {card}",
    "prompt.say_uno": "Appuyez sur U pour dire UNO !",
    "prompt.not_legal": "(injouable maintenant)",
    "hand.title": "Votre main ({count})",
    "hand.empty": "(aucune carte)",
    "hand.legend": "[ ] jouable  ^ choisie  flèches/1-9 choisir  Entrée joue",
    "hand.legend_excess": "[ ] à remettre  ^ choisie  flèches/1-9 choisir  Entrée remet",
    "picker.color": "Couleur pour {card} :",
    "picker.color_phase": "Choisissez une couleur :",
    "picker.gift_first": "Qui reçoit la première carte ?",
    "picker.gift_second": "Qui reçoit la deuxième carte ?",
    "picker.gift_one": "Qui reçoit la carte ?",
    "picker.gift_card": "Qui reçoit {card} ?",
    "picker.target": "Qui reçoit la pénalité ?",
    "picker.swap": "Échanger sa main avec qui ?",
    "picker.hint": "un numéro choisit (ou flèches, puis Entrée), Échap annule",
    "picker.hint_color": "R J V B choisit (ou flèches, puis Entrée), Échap annule",
    "picker.hint_owed": "un numéro choisit (ou flèches, puis Entrée)",
    "picker.hint_color_owed": "R J V B choisit (ou flèches, puis Entrée)",
    "key.draw": "piocher",
    "key.pass": "passer",
    "key.uno": "UNO !",
    "key.catch": "Contre-UNO",
    "catch.nobody": "Personne à contrer : aucun joueur n'a qu'une carte sans avoir dit UNO.",
    "key.challenge": "contester",
    "key.accept": "prendre",
    "key.ready": "je suis prêt",
    "key.not_ready": "pas encore prêt",
    "key.quit": "quitter",
    "lobby.title": "Salon : {table}",
    "lobby.waiting": "On attend que l'hôte lance la partie.",
    "lobby.auto_start": "La partie commence dès que tous les joueurs sont prêts.",
    "lobby.you_are": "Vous êtes {name}, place {seat}.",
    "lobby.check": "Votre code de contrôle : {check}. Il doit être identique à celui affiché "
    "près de votre nom sur l'écran commun.",
    "lobby.ready": "prêt",
    "lobby.not_ready": "pas prêt",
    "lobby.bot": "robot",
    "lobby.kid": "enfant",
    "lobby.empty": "(libre)",
    "lobby.offline": "hors ligne",
    "lobby.preset": "Règles : {preset}",
    "preset.official": "officielles",
    "preset.kids1": "enfants 1",
    "preset.kids2": "enfants 2",
    "lobby.press_ready": "Appuyez sur R quand vous êtes prêt.",
    "lobby.you_are_ready": "Vous êtes prêt (R si vous ne l'êtes plus).",
    "lobby.press_ready_local": "Appuyez sur R pour lancer la partie suivante.",
    "lobby.closed_leave": "Appuyez sur Q pour partir.",
    "end.round_title": "Fin de la manche {round}",
    "end.round_winner": "{name} gagne la manche et marque {points}.",
    "end.round_nowinner": "Personne n'a gagné cette manche.",
    "end.game_title": "Partie terminée",
    "end.game_winner": "{name} gagne la partie !",
    "end.game_nowinner": "La partie s'est finie sans gagnant.",
    "end.next_round": "On attend la manche suivante...",
    "end.col_player": "Joueur",
    "end.col_score": "Score",
    "end.next_game": "Entrée : retour au salon, pour la partie suivante (R : au salon, et "
    "prêt) ; Q pour partir.",
    "end.next_game_local": "Entrée, puis R pour rejouer ; Q pour partir.",
    "error.refused": "Refusé : {text}",
    "error.refused_sentence": "Refusé. {text}",
    "error.rule": "(règle {rule})",
    "bye.reason": "L'hôte a fermé la connexion : {reason}",
    "bye.saved": "L'hôte a sauvegardé la table et l'a fermée. S'il la reprend, relancez "
    "lanuno join : vous retrouvez votre place et votre main.",
    "reason.room_code": "le code de la salle est faux (ou l'hôte a refusé cette connexion)",
    "reason.nobody": "personne ne répond à cette adresse (l'hôte est-il lancé ?)",
    "reason.timeout": "l'hôte n'a pas répondu à temps",
    "reason.other_table": "une autre table répond à cette adresse",
    "reason.gone": "l'hôte n'est pas revenu",
    "reason.full": "la table est pleine",
    "reason.spectators": "trop de spectateurs ({number})",
    "reason.no_table": "l'hôte n'a pas de table {number}",
    "reason.version": "aucune version du protocole en commun (mettez lanuno à jour)",
    "reason.kicked": "retiré par l'hôte",
    "reason.closed": "l'hôte a fermé la table",
    "reason.closed_saved": "l'hôte a fermé la table et l'a sauvegardée",
    "reason.paused": "l'hôte a mis la table en pause : il n'a pas pu sauvegarder la partie "
    "(vous gardez votre place)",
    "reason.not_yours": "cette place n'est plus la vôtre",
    "reason.elsewhere": "cette place a repris sur une autre connexion",
    "reason.unavailable": "place indisponible",
    "reason.no_seat": "l'hôte ne garde plus cette place pour vous",
    "reason.stale": "la place enregistrée n'est plus valable",
    "reason.rate": "trop de messages",
    "reason.rotated": "le code de la salle a changé pendant la connexion",
    "reason.technical": "problème de connexion ({text})",
    "notice.seat_lost": "L'hôte ne garde plus cette place : on rejoint la table à nouveau.",
    "notice.host_still_lost": (
        "L'hôte ne répond plus depuis {minutes} min : lanuno essaie encore. Si vous partez, "
        "votre place reste enregistrée sur cet ordinateur, et lanuno join la reprend."
    ),
    "notice.fairness": "Le paquet de cette manche ne correspond pas : {reason}",
    "join.looking": "recherche des tables sur le réseau (3 s)...",
    "join.waiting_seat": "votre place à {table} vous attend",
    "join.none": "aucune table trouvée ; demandez son adresse à l'hôte : lanuno join HÔTE:PORT",
    "join.table": "{name}  (table {number} à {address})  places libres : {free}, règles {preset}",
    "join.table_playing": "{name}  (table {number} à {address})  partie en cours : "
    "regardez-la, jouez la suivante",
    "join.stale": "  (ne répond pas)",
    "join.choose": "choisissez 1-{count} : ",
    "join.choose_again": "tapez un nombre de 1 à {count} (Entrée seule pour partir)",
    "join.choose_one": "Entrée pour cette table (Ctrl-C pour partir) : ",
    "join.choose_one_again": "il n'y a que cette table : Entrée pour la choisir, ou Ctrl-C pour "
    "partir",
    "join.gone": "cette table ne répond plus ; choisissez-en une autre",
    "terminal.not_a_tty": "L'entrée n'est pas un terminal : on joue ligne par ligne "
    "(comme avec --plain).",
    "join.loopback": "Seule la boucle locale est disponible : recherche sur cet ordinateur "
    "seulement.",
    "join.resuming": "reprise de votre place {seat} à {address}",
    "join.resume_failed": "{reason} ; on rejoint avec le code de la salle",
    "join.seat_damaged": "une place sauvegardée est illisible : elle est mise de côté ({path})",
    "join.code": "code de la salle (sur l'écran commun) : ",
    "code.format": "un code a 6 chiffres, comme 482 915",
    "join.failed": "impossible de rejoindre {address} : {reason}",
    "join.hall_hint": "l'écran de l'hôte liste ses tables ; lanuno join sans adresse liste "
    "toutes les tables du réseau",
    "join.table_hint": "si cet hôte a plusieurs tables, ajoutez --table N (N est le numéro de "
    "votre table sur l'écran de l'hôte)",
    "join.table_code_hint": "chaque table d'une salle a son propre code : est-ce bien celui "
    "de l'écran commun de la table {number} ?",
    "reason.screen_code": "le code d'écran est faux (il s'affiche sur l'écran de l'hôte)",
    "reason.link_ended": "l'hôte a mis fin à la liaison",
    "screen.none": "aucune table trouvée ; demandez son adresse à l'hôte : lanuno screen HÔTE:PORT",
    "screen.table": "{name}  (table {number} à {address})",
    "screen.link_lost": "Le lien avec l'hôte est coupé : nouvelle association...",
    "screen.link_back": "De nouveau associé à l'hôte.",
    "screen.code": "code d'écran (sur l'écran de l'hôte) : ",
    "screen.failed": "impossible de s'associer à {address} : {reason}",
    "screen.paired": "associé à la table {number} à {address}",
    "screen.ended": "La liaison est terminée : {reason}.",
    "screen.saved": "L'hôte a sauvegardé la table et l'a fermée. Quand il la reprend, relancez "
    "lanuno screen (son code d'écran est sur l'hôte).",
    "bye.closed": "La connexion est fermée.",
    "bye.ended": "La connexion est fermée : {reason}.",
    "bye.failed": "La connexion a échoué : {reason}",
    "ev.round_started": "La manche {round} commence ; {name} distribue {count} à chacun.",
    "ev.card_turned": "La première carte est {card}.",
    "ev.card_returned": "{card} retourne dans le paquet.",
    "ev.played": "{name} a joué {card}.",
    "ev.jumped_in": "{name} s'est interposé avec {card}.",
    "ev.played_chose": "{name} a joué {card} et choisi le {color}.",
    "ev.color_chosen": "{name} a choisi le {color}.",
    "ev.drew_one": "{name} a pioché une carte.",
    "ev.drew_many": "{name} a pioché {count}.",
    "ev.drew_penalty": "{name} a pris la pénalité : {count}.",
    "ev.drew_caught": "{name} a été contré et pioche {count}.",
    "ev.drew_challenge": "{name} a pioché {count} après la contestation.",
    "ev.drew_timeout": "{name} n'a pas joué à temps et pioche {count}.",
    "ev.drew_gift": "{name} a pioché {count} à donner.",
    "ev.passed": "{name} a passé.",
    "ev.skipped": "{name} passe son tour.",
    "ev.direction_cw": "Le jeu tourne maintenant dans le sens horaire.",
    "ev.direction_ccw": "Le jeu tourne maintenant dans le sens antihoraire.",
    "ev.reshuffled": "La défausse a été mélangée en une nouvelle pioche ({count}).",
    "ev.reshuffled_stalled": (
        "Personne ne pouvait jouer : pioche et défausse ont été mélangées ensemble ({count})."
    ),
    "ev.my_seed_unused": (
        "La manche {round} a été mélangée sans votre graine (arrivée trop tard chez l'hôte) ; "
        "le paquet reste vérifié avec les graines utilisées."
    ),
    "ev.penalty_pending": "{name} risque {count}.",
    "ev.uno_declared": "{name} dit UNO !",
    "ev.uno_exposed": "{name} a une carte et n'a pas dit UNO.",
    "ev.counter_uno_caught": "{caller} a contré {target}, qui n'avait pas dit UNO !",
    "ev.counter_uno_missed": "{caller} a tenté un Contre-UNO sur {target}, en vain.",
    "ev.challenged_bluff": "{challenger} a contesté {target} : c'était du bluff !",
    "ev.challenged_fair": "{challenger} a contesté {target} : le +4 était régulier.",
    "ev.gave": "{name} a donné des cartes à {recipients}.",
    "ev.hands_swapped": "{name} a échangé sa main avec {target}.",
    "ev.hands_rotated": "Chacun a passé sa main au suivant.",
    "ev.pile_dealt_out": "{name} a distribué la défausse à tout le monde.",
    "ev.pile_dealt_out_none": (
        "{name} a joué une carte vierge : la défausse n'avait aucune carte à distribuer."
    ),
    "ev.cards_returned": "{name} a remis {count} sous la pioche.",
    "ev.timed_out": "{name} n'a pas joué à temps.",
    "ev.autopilot_on": "Un robot joue pour {name} jusqu'à son retour.",
    "ev.autopilot_off": "{name} est de retour.",
    "ev.round_ended": "{name} gagne la manche : {points}.",
    "ev.game_ended": "{name} gagne la partie !",
    "ev.hand_dealt": "Vous avez reçu {cards}.",
    "ev.cards_drawn": "Vous avez pioché {cards}.",
    "ev.cards_received": "Vous avez reçu {cards} de {name}.",
    "ev.hand_revealed": "La main de {name} était {cards}.",
    "ev.other": "{type}",
    "host.join_how": "Pour rejoindre, tapez :",
    "host.join_code": "Code de la salle",
    "host.join_lan": "ou simplement : lanuno join  (trouve cette table sur le réseau)",
    "host.players": "Joueurs",
    "host.no_address": "(pas encore d'adresse)",
    "host.loopback_only": "Seul cet ordinateur peut rejoindre : la table n'écoute qu'en "
    "local. Pour les autres, reliez-le au réseau sans-fil de la salle ou à un câble, sans "
    "«--interface 127.0.0.1» s'il a été donné.",
    "host.options": "Options",
    "host.rules": "Règles",
    "host.preset": "Règles : {preset}",
    "host.bot_level": "Nouveaux robots : {level}",
    "host.keys_lobby": "B robot  L niveau  Suppr retirer  P règles  O options  S lancer  Q quitter",
    "host.keys_options": "Haut/Bas option  Entrée/Espace changer  Échap retour",
    "host.keys_play": "Q quitter",
    "host.keys_between": "S manche suivante  Suppr exclure  Q quitter",
    "host.keys_game_end": "S nouvelle partie  Entrée salon  Suppr exclure  Q quitter",
    "host.cannot_start": "On attend les joueurs (il faut au moins 2 places).",
    "host.can_start": "La table est prête : S pour lancer.",
    "host.last_events": "Derniers coups",
    "host.winner": "VAINQUEUR",
    "host.value.on": "oui",
    "host.value.off": "non",
    "host.value.none": "aucun",
    "host.value.one_round": "aucun (une seule manche)",
    "host.value.challenge": "contestable",
    "host.value.strict": "strict",
    "host.value.free": "libre",
    "host.option_value": "{name} : {value}",
    "opt.stacking": "Cumuler les +2 (T1)",
    "opt.seven_o": "Sept-Zéro (T5)",
    "opt.jump_in": "Interception (T6)",
    "opt.draw_until_playable": "Piocher jusqu'à pouvoir jouer (T7)",
    "opt.wild_draw_four": "Joker +4",
    "opt.target": "Points pour gagner",
    "opt.move_timer": "Temps par coup (s)",
    "opt.kids_immune_to_counter_uno": "Enfants protégés du Contre-UNO (KA1)",
    "opt.adults_draw_until_playable": "Adultes piochent jusqu'à jouer (KA2)",
    "opt.kids_stack": "Les enfants peuvent cumuler (KA3)",
    "opt.kids_choose_target": "Les enfants choisissent la cible (KA4)",
    "opt.kids_hit_all_adults": "Les enfants visent tous les adultes (KA5)",
    "rules.rounds_to_win": "Manches pour gagner",
    "rules.deck.standard": "Paquet : les 108 cartes",
    "rules.deck.numbers": "Paquet : chiffres seulement",
    "rules.deck.with_blanks": "Paquet : 4 cartes vierges en plus",
    "rules.hand_size": "Cartes distribuées : {count}",
    "rules.hand_limit": "Maximum en main : {count}",
    "rules.hand_limit.none": "Maximum en main : aucun",
    "rules.first_player.youngest": "Le plus jeune commence",
    "rules.first_player.left_of_dealer": "Le joueur à gauche du donneur commence",
    "rules.voluntary_draw.on": "Piocher même si on peut jouer",
    "rules.voluntary_draw.off": "Piocher seulement si bloqué",
    "rules.must_play_drawn.on": "Une carte piochée qui va est jouée",
    "rules.must_play_drawn.off": "Une carte piochée qui va peut être gardée",
    "rules.draw_when_stuck": "Piocher seulement si bloqué et jouer la carte si elle va",
    "rules.counter_uno.on": "Contre-UNO : oui",
    "rules.counter_uno.off": "Contre-UNO : non",
    "rules.draw_two_gift.on": "+2 : on pioche 2 et on les donne",
    "rules.draw_two_gift.off": "+2 : le suivant pioche 2",
    "level.beginner": "débutant",
    "level.intermediate": "intermédiaire",
    "level.expert": "expert",
    "plain.help": (
        "Tapez une action ({actions} ; les places se comptent à partir de 1 ; {letters}), "
        "ou le numéro d'une action proposée, ou : «prêt», «état», «aide», «quitter»."
    ),
    "plain.help_example": "«{action}»",
    "plain.letters": "J jaune, V vert",
    "plain.letters_actions": "J jaune, V vert ; après la couleur : Pa Passe, In Inversion, "
    "+2 ; Jok Joker, +4 Joker +4",
    # les verbes du client en lignes (ui/typed.py) : tapés dans l'une ou l'autre langue
    "verb.play": "jouer",
    "verb.draw": "piocher",
    "verb.pass": "passer",
    "verb.color": "couleur",
    "verb.challenge": "contester",
    "verb.accept": "prendre",
    "verb.uno": "uno",
    "verb.catch": "contre-uno",
    "verb.give": "donner",
    "verb.target": "viser",
    "verb.swap": "échanger",
    "verb.return": "remettre",
    "plain.welcome": "Bienvenue à la table «{table}» (règles {preset}) : vous êtes à la "
    "place {seat}.",
    "plain.rules": "Règles : {preset}. {rules}.",
    "plain.welcome_watch": (
        "Bienvenue à la table «{table}» (règles {preset}) : vous regardez ; vous aurez une "
        "place à la fin de cette partie."
    ),
    "plain.lobby": "Salon : {seats}. Tapez «prêt» quand vous l'êtes.",
    "plain.lobby_ready": "Salon : {seats}.",
    "plain.at_table": "À la table : {seats}.",
    "plain.seat_cards": "{seat} : {cards}",
    "plain.hand": "Votre main : {cards}",
    "plain.may": "Vous pouvez : {choices}",
    "plain.choose": "Choisissez entre 1 et {count}.",
    "plain.choose_one": "Seule l'action 1 est proposée : tapez 1 pour la faire.",
    "plain.give_two": "(«{example}» donne la première carte piochée à la place {first}, la "
    "deuxième à la place {second}.)",
    "plain.not_at_table": "«{text}» ne se joue pas à cette table.",
    "plain.ready_in_game": "La partie est en cours : «prêt» sert au salon, entre deux parties.",
    "plain.nothing_to_choose": "Vous n'avez rien à faire maintenant : attendez votre tour.",
    "plain.sent_later": (
        "l'hôte ne répond pas : ce sera envoyé à son retour (et refusé si la table a avancé "
        "entre-temps)"
    ),
    "plain.not_an_action": "«{text}» n'est pas une action : tapez-en une comme «jouer R7» ou "
    "«piocher», le numéro d'une action proposée, ou «aide».",
    "plain.needs_seat": "«{text}» demande un numéro de place, à partir de 1 : «{example}».",
    "plain.needs_card": "«{text}» demande une carte : «{example}».",
    "plain.needs_color": "«{text}» demande une couleur : «{example}».",
    "plain.scores": "Scores : {scores}.",
    "plain.away": "{name} est absent : sa place est gardée jusqu'à son retour.",
    "plain.back": "{name} est de retour (code de contrôle {check}).",
    "plain.reconnecting": "La connexion à l'hôte est coupée : reconnexion...",
    "plain.reconnected": "De nouveau connecté à l'hôte.",
    "you_object": "vous",
    "log.mid_round": "La manche {round} est en cours ; la carte du dessus est {card}.",
    "log.went_on": "Pendant votre déconnexion, la manche a continué : la carte du dessus est "
    "{card}, et vous avez {cards}.",
    "log.away": "Pendant votre déconnexion :",
    "log.back": "Vous êtes de retour à la table.",
    "log.lobby": "salon : {seats}  {code}",
    "host.log.journal": "journal : {path} (pour reprendre : «lanuno host --resume {path}»)",
    "host.log.kept_interface": "servie sur {address} seulement, comme avant la reprise",
    "host.log.kept_no_mdns": "pas annoncée sur le réseau («--no-mdns»), comme avant la reprise",
    "host.log.saved": "la table est sauvegardée : «lanuno host --resume {path}» la reprend, "
    "et ses joueurs retrouvent leur place avec «lanuno join»",
    "host.log.saved_tables": "les {count} tables sont sauvegardées : «lanuno host --resume "
    "{path}» les reprend, et leurs joueurs retrouvent leur place avec «lanuno join»",
    "host.log.port_taken": "le port {port}, où était la table, est pris : ses joueurs "
    "doivent la rejoindre à nouveau (lanuno join), à l'adresse ci-dessous",
    "host.log.table": "table {name} à {addresses}  code de la salle {code}",
    "host.log.join_with": "les joueurs rejoignent avec : {command}",
    "host.log.loopback": (
        "Seule la boucle locale est servie : seul cet ordinateur peut rejoindre. Pour les "
        "autres, reliez celui-ci à un réseau (Wi-Fi, câble) et servez-le (sans «--interface», "
        "ou avec son adresse)."
    ),
    "host.log.screen_code": "code d'écran {code} pour la table {number} : {command}",
    "host.log.hall_table": "table {number} {name}  code de la salle {code}",
    "host.log.hall_join": "joueurs : {command}",
    "play.default_name": "Joueur",
    "play.table_name": "Table d'entraînement",
    "key.yes": "o",
    "point_one": "{count} point",
    "point_many": "{count} points",
    "ev.round_started.you": "La manche {round} commence ; vous distribuez {count} à chacun.",
    "ev.played.you": "Vous avez joué {card}.",
    "ev.jumped_in.you": "Vous vous êtes interposé avec {card}.",
    "ev.played_chose.you": "Vous avez joué {card} et choisi le {color}.",
    "ev.color_chosen.you": "Vous avez choisi le {color}.",
    "ev.drew_one.you": "Vous avez pioché une carte.",
    "ev.drew_many.you": "Vous avez pioché {count}.",
    "ev.drew_penalty.you": "Vous avez pris la pénalité : {count}.",
    "ev.drew_caught.you": "Vous avez été contré et piochez {count}.",
    "ev.drew_challenge.you": "Vous avez pioché {count} après la contestation.",
    "ev.drew_timeout.you": "Vous n'avez pas joué à temps et piochez {count}.",
    "ev.drew_gift.you": "Vous avez pioché {count} à donner.",
    "ev.passed.you": "Vous avez passé.",
    "ev.skipped.you": "Vous passez votre tour.",
    "ev.penalty_pending.you": "Vous risquez {count}.",
    "ev.uno_declared.you": "Vous dites UNO !",
    "ev.uno_exposed.you": "Vous avez une carte et n'avez pas dit UNO !",
    "ev.counter_uno_caught.you": "Vous avez contré {target}, qui n'avait pas dit UNO !",
    "ev.counter_uno_caught.you_target": "{caller} vous a contré : vous n'aviez pas dit UNO !",
    "ev.counter_uno_missed.you": "Vous avez tenté un Contre-UNO sur {target}, en vain.",
    "ev.counter_uno_missed.you_target": "{caller} a tenté un Contre-UNO contre vous, en vain.",
    "ev.challenged_bluff.you": "Vous avez contesté {target} : c'était du bluff !",
    "ev.challenged_bluff.you_target": (
        "{challenger} vous a contesté et a vu votre main : c'était du bluff !"
    ),
    "ev.challenged_fair.you": "Vous avez contesté {target} : le +4 était régulier.",
    "ev.challenged_fair.you_target": (
        "{challenger} vous a contesté et a vu votre main : votre +4 était régulier."
    ),
    "ev.gave.you": "Vous avez donné des cartes à {recipients}.",
    "ev.hands_swapped.you": "Vous avez échangé votre main avec {target}.",
    "ev.hands_swapped.you_target": "{name} a échangé sa main avec vous.",
    "ev.pile_dealt_out.you": "Vous avez distribué la défausse à tout le monde.",
    "ev.pile_dealt_out_none.you": (
        "Vous avez joué une carte vierge : la défausse n'avait aucune carte à distribuer."
    ),
    "ev.cards_returned.you": "Vous avez remis {count} sous la pioche.",
    "ev.timed_out.you": "Vous n'avez pas joué à temps.",
    "ev.autopilot_on.you": "Un robot joue pour vous jusqu'à ce que vous jouiez vous-même.",
    "ev.autopilot_off.you": "Vous êtes de retour.",
    "ev.round_ended.you": "Vous gagnez la manche : {points}.",
    "ev.game_ended.you": "Vous gagnez la partie !",
    "ev.hand_revealed.you": "Votre main a été montrée : {cards}.",
    "ev.played.bot": "Un robot a joué votre {card} à votre place.",
    "ev.jumped_in.bot": "Un robot s'est interposé avec votre {card} à votre place.",
    "ev.played_chose.bot": "Un robot a joué votre {card} à votre place et choisi le {color}.",
    "ev.color_chosen.bot": "Un robot a choisi le {color} à votre place.",
    "ev.drew_one.bot": "Un robot a pioché une carte pour vous.",
    "ev.drew_many.bot": "Un robot a pioché {count} pour vous.",
    "ev.drew_penalty.bot": "Un robot a pris la pénalité pour vous : {count}.",
    "ev.drew_challenge.bot": "Un robot a contesté pour vous et pioché {count}.",
    "ev.drew_gift.bot": "Un robot a pioché {count} à donner pour vous.",
    "ev.passed.bot": "Un robot a passé pour vous.",
    "ev.uno_declared.bot": "Un robot a dit UNO pour vous !",
    "ev.counter_uno_caught.bot": (
        "Un robot a contré {target} pour vous : il n'avait pas dit UNO !"
    ),
    "ev.counter_uno_missed.bot": (
        "Un robot a tenté un Contre-UNO sur {target} pour vous, en vain."
    ),
    "ev.challenged_bluff.bot": "Un robot a contesté {target} pour vous : c'était du bluff !",
    "ev.challenged_fair.bot": "Un robot a contesté {target} pour vous : le +4 était régulier.",
    "ev.gave.bot": "Un robot a donné vos cartes à {recipients}.",
    "ev.hands_swapped.bot": "Un robot a échangé votre main avec {target}.",
    "ev.pile_dealt_out.bot": "Un robot a distribué la défausse à tout le monde pour vous.",
    "ev.pile_dealt_out_none.bot": (
        "Un robot a joué une carte vierge pour vous : la défausse n'avait aucune carte à "
        "distribuer."
    ),
    "ev.cards_returned.bot": "Un robot a remis {count} sous la pioche pour vous.",
    "ev.cards_drawn.bot": "Un robot a pioché {cards} pour vous.",
    "end.round_winner.you": "Vous gagnez la manche et marquez {points}.",
    "end.game_winner.you": "Vous gagnez la partie !",
    "end.continue": "Appuyez sur Entrée pour continuer.",
    "end.next_started": "La manche {round} a commencé : Entrée pour jouer.",
    "bot_name": "Robot {number} ({level})",
    "status.away": "absent",
    "status.bot": "robot joue",
    "status.check": "contrôle {check}",
    "key.help": "aide",
    "key.log": "historique",
    "help.title": "Touches",
    "help.h.screen": "Un autre écran pour cette table (une télé, un autre portable) :",
    "help.close": "Appuyez sur une touche pour fermer cette aide.",
    "help.c.cards": "Gauche/Droite ou 1-9, 0 : choisir une carte",
    "help.c.enter": "Entrée ou Espace : la jouer (un joker demande sa couleur)",
    "help.c.enter_numbers": "Entrée ou Espace : la jouer",
    "help.c.basic": "D piocher  P passer  U dire UNO !",
    "help.c.basic_no_pass": "D piocher  U dire UNO !",
    "help.c.catch": "K Contre-UNO : attraper un joueur qui a oublié de dire UNO",
    "help.c.challenge": "C contester un Joker +4",
    "help.c.take": "A prendre la pénalité",
    "help.c.scroll": "PgUp/PgDn : faire défiler l'historique",
    "help.c.misc": "R prêt (salon)  Q quitter la table  ? cette aide",
    "help.h.lobby": "Salon : B robot, L niveau, Suppr retirer ou exclure, P règles, O options",
    "help.h.start": "S lancer la partie, la manche suivante, ou une nouvelle partie",
    "help.h.between": "Entre les manches : Suppr exclut le joueur choisi ; Entrée : salon",
    "help.h.scroll": "PgUp/PgDn : faire défiler l'historique",
    "help.h.misc": "Q fermer la table  ? cette aide",
    "help.r.watch": "Cet écran suit la table : seul l'écran de l'hôte la modifie",
    "help.r.between": "Entrée sur le gagnant : le salon (affiché aussi dès qu'un joueur est prêt)",
    "help.r.misc": "Q fermer cet écran  ? cette aide",
    "quit.confirm": "Quitter la partie ? O pour partir, une autre touche pour rester.",
    "quit.confirm_local": "Quitter ? La partie sera perdue : O pour partir, une autre touche pour "
    "rester.",
    "quit.seat_kept": "Vous avez quitté {table} en pleine partie : votre place est gardée (un "
    "robot la joue en attendant). Relancez lanuno join pour la reprendre.",
    "quit.confirm_host": (
        "Fermer la table pour tous (sauvegardée) ? O ferme, autre touche : rester."
    ),
    "log.scrolled": "(lignes plus anciennes : PgDn pour les dernières)",
    "small.title": "Cette fenêtre est trop petite pour lanuno.",
    "small.quit": "Ctrl-C pour quitter.",
    "small.need": (
        "Agrandissez la fenêtre : au moins {width} x {height} (actuellement {now_w} x {now_h})."
    ),
    "host.code_rotated": "Trop de codes erronés : le code de la salle est maintenant {code}.",
    "table.waiting_players": "En attente du retour des joueurs.",
    "header.code": "code {code}",
    "refusal.generic": "Ce n'est pas possible maintenant.",
    "refusal.not_an_action": "Ce n'est pas une action de ce jeu.",
    "refusal.no_seat": "Cette place n'existe pas à cette table.",
    "refusal.round_over": "La manche est finie.",
    "refusal.game_over": "La partie est finie.",
    "refusal.round_running": "La manche est encore en cours.",
    "refusal.not_your_turn": "Ce n'est pas à vous : on attend {name}.",
    "refusal.not_now": "Pas maintenant : {what}.",
    "refusal.not_a_card": "Ce n'est pas une carte.",
    "refusal.wild_color": "Seul un joker prend une couleur, et ce doit être une couleur.",
    "refusal.not_held": "Vous n'avez pas {card}.",
    "refusal.drawn_only": "Après avoir pioché, vous ne pouvez jouer que la carte piochée.",
    "refusal.wd4_held_color": (
        "Vous avez du {color} : le Joker +4 n'est permis que sans carte de la couleur demandée."
    ),
    "refusal.no_match": "{card} ne va pas sur {top} (la couleur est le {color}).",
    "refusal.jump_late": "On ne s'interpose qu'avant que le joueur suivant agisse.",
    "refusal.jump_identical": "Pour vous interposer, jouez une carte identique à celle de la pile.",
    "refusal.no_stacking": "On ne cumule pas ici : prenez la pénalité.",
    "refusal.stack_what": "Seul un +2 sur un +2, ou un Joker +4, se cumule.",
    "refusal.drawn_already": "Vous avez déjà pioché ce tour-ci.",
    "refusal.must_play": "Vous pouvez jouer une carte, donc vous ne pouvez pas piocher.",
    "refusal.pass_after_draw": "Vous ne pouvez passer qu'après avoir pioché.",
    "refusal.drawn_fits": "La carte piochée convient : il faut la jouer.",
    "refusal.choose_color": "Choisissez rouge, jaune, vert ou bleu.",
    "refusal.no_challenge_table": "À cette table, le Joker +4 ne se conteste pas.",
    "refusal.challenge_what": "Seul un Joker +4 qui vous vise peut être contesté.",
    "refusal.no_penalty": "Il n'y a pas de pénalité à prendre.",
    "refusal.uno_already": "Vous avez déjà dit UNO.",
    "refusal.uno_when": "Dites UNO avec deux cartes avant d'en jouer une, ou avec la dernière.",
    "refusal.counter_other": "Le Contre-UNO vise un autre joueur.",
    "refusal.no_counter_uno": "Pas de Contre-UNO à cette table.",
    "refusal.no_key": "Cette touche ne sert pas à cette table : ? montre ses touches.",
    "refusal.kids_immune": "À cette table, les enfants ne peuvent pas être contrés.",
    "refusal.gift_count": "Nommez un destinataire pour chacune des {count} piochées.",
    "refusal.gift_opponents": "Donnez les cartes à vos adversaires.",
    "refusal.target_other": "Choisissez un autre joueur pour recevoir la pénalité.",
    "refusal.swap_other": "Choisissez un autre joueur avec qui échanger.",
    "refusal.return_held": "Remettez une carte que vous avez en main.",
    "refusal.no_auto": "Pas de décision automatique à ce moment.",
    "refusal.timer_only": "Seul le minuteur de l'hôte fait expirer un coup.",
    "refusal.no_round": "Aucune manche n'est en cours.",
    "refusal.stale": "La table a changé avant l'arrivée de votre coup ; regardez à nouveau.",
    "refusal.slow_down": "Trop de messages : ralentissez.",
    "refusal.bad_notation": "Ce coup n'a pas été compris.",
    "refusal.host.rules_lobby": "Les règles ne changent que dans le salon.",
    "refusal.host.bots_lobby": "Les robots s'ajoutent dans le salon.",
    "refusal.host.running": "La partie est déjà lancée.",
    "refusal.host.two_seats": "Il faut au moins 2 places pour jouer (ajouter un robot ?).",
    "refusal.host.full": "La table est pleine (10 places).",
    "refusal.host.remove_between": "On ne retire un joueur qu'entre deux manches.",
    "refusal.host.bot_stays": "Un robot garde sa place jusqu'à la fin de la partie.",
    "refusal.host.remote_screen": (
        "Ceci est un écran déporté : c'est l'écran de l'hôte qui change la table."
    ),
    "refusal.host.hall_full": "On ouvre au plus {count} tables à la fois.",
    "what.turn": "jouez une carte ou piochez",
    "what.drawn": "jouez la carte piochée, ou passez",
    "what.choose_color": "choisissez la couleur du joker",
    "what.penalty": "prenez la pénalité (ou cumulez, ou contestez, si c'est permis)",
    "what.gift": "donnez les deux cartes piochées",
    "what.choose_target": "choisissez qui reçoit la pénalité",
    "what.swap": "choisissez avec qui échanger votre main",
    "what.excess": "remettez vos cartes en trop sous la pioche",
    "what.round_over": "la manche est finie",
    "chip.W": "Jok",
    "chip.W+4": " +4",
    "chip.X": " ? ",
    "big.S": "PA",
    "big.R": "IN",
    "big.W": "JOK",
    # l'ensemble des tables de cet hôte (ui/hall_app.py)
    "hall.title": "toutes les tables",
    "hall.join_how": "joueurs et écrans :",
    "hall.none": "Aucune table ouverte. N pour en ouvrir une.",
    "hall.table": "table {number}",
    "hall.room_code": "salle {code}",
    "hall.screen_code": "écran {code}",
    "hall.phase.lobby": "salon",
    "hall.phase.playing": "manche {round} en cours",
    "hall.phase.between": "manche {round} finie",
    "hall.phase.game_over": "partie finie",
    "hall.phase.closed": "fermée",
    "hall.phase.paused": "en pause : sa sauvegarde sur disque a échoué",
    "hall.turn": "à {name} de jouer",
    "hall.waiting": "en attente du retour des joueurs",
    "hall.round_won": "gagnée par {name}",
    "hall.game_won": "{name} gagne",
    "hall.free_one": "{count} place libre",
    "hall.free_many": "{count} places libres",
    "hall.nobody": "personne pour l'instant",
    "hall.more_above": "↑ {count} de plus au-dessus",
    "hall.more_below": "↓ {count} de plus en dessous",
    "hall.keys": "Haut/Bas choisir  Entrée afficher  N nouvelle table  C fermer  Q quitter",
    "hall.keys_form": "Haut/Bas champ  Entrée ouvrir la table  Échap annuler",
    "hall.confirm_close": (
        "Fermer la table {number} ({table}) pour tous ? O pour fermer, une autre touche pour "
        "la garder."
    ),
    "hall.confirm_quit": (
        "Fermer toutes les tables et quitter ? Elles restent sauvegardées pour une reprise. "
        "O pour quitter, une autre touche pour rester."
    ),
    "hall.opened": "La table {number} est ouverte.",
    "hall.closed": "La table {number} est fermée.",
    "hall.form.title": "Nouvelle table",
    "hall.form.name": "Nom",
    "hall.form.preset": "Règles",
    "hall.form.options": "Options",
    "hall.form.bots": "Robots",
    "hall.form.level": "Niveau des robots",
    "hall.form.hint.name": "{count} caractères au plus",
    "hall.form.hint.preset": "au choix : {choices}",
    "hall.form.hint.options": "des mots «nom=valeur», par exemple : {choices}",
    "hall.form.hint.bots": "de 0 à {count}",
    "hall.form.hint.level": "au choix : {choices}",
    "hall.form.default_name": "Table {number}",
    "hall.bad.name_blank": "Donnez un nom à la table.",
    "hall.bad.name_long": "Un nom de table a au plus {count} caractères.",
    "hall.bad.preset": "Règles inconnues «{value}» : choisissez {choices}.",
    "hall.bad.option_name": "Option inconnue «{value}» : la liste est dans «lanuno {command} "
    "--help».",
    "hall.bad.option_value": "L'option «{value}» prend {choices}.",
    "hall.bad.options_together": "Ces options ne vont pas ensemble : {reason}.",
    "hall.bad.option_range": "Hors limites : {reason}.",
    "rules.bad.hand_size": "«hand_size» va de 1 à 15",
    "rules.bad.move_timer": "«move_timer» va de 20 à 60 secondes, ou «none»",
    "rules.bad.target": "«target» va de 1 à 10000, ou «none» pour une seule manche",
    "rules.bad.hand_limit": "«hand_limit» ne peut pas être sous «hand_size»",
    "rules.bad.hand_limit_max": "«hand_limit» vaut au plus 112, le plus gros paquet",
    "rules.bad.round_wins": "«target» compte ici les manches gagnées : 25 au plus",
    "hall.bad.bots": "Robots : un nombre de 0 à {count}, pas «{value}».",
    "hall.bad.level": "Niveau inconnu «{value}» : choisissez {choices}.",
    "hall.in.keys_lobby": (
        "B robot  L niveau  Suppr retirer  P règles  O options  S lancer  Échap tables"
    ),
    "hall.in.keys_play": "Échap retour aux tables",
    "screen.remote.keys": "Q fermer cet écran",
    "screen.remote.can_start": "La table est prête : l'hôte lance la partie.",
    "screen.remote.auto_start": "La partie commence dès que tous les joueurs sont prêts.",
    "hall.in.keys_between": "S manche suivante  Suppr exclure  Échap tables",
    "hall.in.keys_game_end": "S nouvelle partie  Entrée salon  Suppr exclure  Échap tables",
    "hall.in.help_misc": "Échap ou Q retour aux tables  ? cette aide",
    "cli.description": "UNO pour une salle pleine d'ordinateurs portables.",
    "cli.usage": "utilisation : ",
    "cli.positionals": "arguments",
    "cli.optionals": "options",
    "cli.help": "affiche cette aide et quitte",
    "cli.version": "affiche la version et quitte",
    "cli.error": "{prog} : erreur : {message}",
    "cli.err.required": "ces arguments manquent : {names}",
    "cli.err.choice": "argument {name} : choix inconnu : {value} (choisir parmi {choices})",
    "cli.err.unrecognized": "arguments inconnus : {names}",
    "cli.err.expected": "argument {name} : une valeur est attendue",
    "cli.err.ambiguous": "option ambiguë : {name} peut être {names}",
    "cli.err.no_value": "argument {name} : ne prend pas de valeur ({value})",
    "cli.err.value": "argument {name} : valeur invalide ({kind}) : {value}",
    "cli.err.argument": "argument {name} : {message}",
    "cli.err.age": "un âge est un nombre entier de 0 à {max}",
    "cli.err.seconds": "un nombre de secondes, 0 ou plus, était attendu, pas {value}",
    "cli.err.positive": "un nombre de secondes au-dessus de 0 était attendu, pas 0",
    "cli.err.table": "un numéro de table va de 1 à {max}",
    "cli.err.players": "une table a de {min} à {max} places, pas {value}",
    "cli.err.lang": "langue inconnue {value} : choisir parmi {choices}",
    "cli.err.name_blank": "un nom ne peut pas être vide",
    "cli.err.name_chars": "{value} : un nom est du texte imprimable, sans caractère de contrôle "
    "ni de direction",
    "cli.sim": "parties entre bots dans ce processus, avec des statistiques",
    "cli.sim.games": "parties à jouer (par défaut : 100)",
    "cli.sim.players": "places à chaque table (par défaut : 4)",
    "cli.sim.seed": "la graine de la première partie (par défaut : 0)",
    "cli.sim.playouts": (
        "expert : mondes tirés par décision au lieu de ses 150 (sans limite de temps : "
        "reproductible quelle que soit la charge)"
    ),
    "cli.sim.level": "niveau des bots pour toutes les places, ou un par place ({levels})",
    "cli.sim.progress": (
        "la barre de progression sur la sortie d'erreur : «auto» la dessine dans un terminal "
        "seulement (par défaut : «auto»)"
    ),
    "cli.preset": "jeu de règles (par défaut : «official»)",
    "cli.option": (
        "option de table, répétable : «stacking=on», «seven_o=on», «jump_in=on», "
        "«draw_until_playable=on», «wild_draw_four=strict», «target=200|300|500|none», "
        "«move_timer=30», «ka1..ka5=on»"
    ),
    "cli.host": "héberger une table sur ce réseau local (écran partagé)",
    "cli.host.name": (
        "nom de la table (par défaut : le nom de cet ordinateur ; avec «--tables» : le début des "
        "noms, «Table 1», «Table 2»...)"
    ),
    "cli.host.tables": "héberger N tables sur un port (une salle ; son journal est un dossier)",
    "cli.host.port": "port TCP (par défaut : un port libre)",
    "cli.host.bots": "bots à placer au départ",
    "cli.host.level": (
        "niveau des bots placés avec «--bots», de ceux que l'écran ajoute (L le change) et des "
        "bots qui jouent pour les joueurs partis (par défaut : «intermediate»)"
    ),
    "cli.host.code": (
        "code de salle à utiliser au lieu d'un code tiré au hasard (avec «--tables» : celui de "
        "chaque table)"
    ),
    "cli.host.interface": (
        "adresse IPv4 où servir et s'annoncer (par défaut : chaque adresse du réseau local)"
    ),
    "cli.host.headless": "un journal des événements au lieu d'un écran",
    "cli.host.resume": "reconstruire une table depuis son journal (une salle : «DIR»)",
    "cli.host.salvage": (
        "avec «--resume» : restaurer un journal abîmé au milieu jusqu'à l'endroit abîmé (une "
        "copie du fichier est gardée)"
    ),
    "cli.host.journal": "où écrire le journal (une salle : «DIR»)",
    "cli.host.no_mdns": "ne pas s'annoncer sur le réseau local",
    "cli.host.round_pause": "sans écran : secondes entre les manches",
    "cli.host.peer_timeout": "secondes de silence avant qu'un participant soit tenu pour parti",
    "cli.lang": "langue de l'interface («en», «fr»)",
    "cli.bot_delay": "secondes qu'un bot attend avant d'agir (par défaut : le rythme d'un humain)",
    "cli.join": "rejoindre une table (sans «ADDRESS» : liste les tables du réseau local)",
    "cli.join.name": "votre nom à la table (par défaut : votre nom de connexion)",
    "cli.join.code": "le code de salle affiché sur l'écran partagé",
    "cli.table": "le numéro de la table à «HOST:PORT» (par défaut 1)",
    "cli.kid": "jouer en tant qu'enfant (options pour enfants)",
    "cli.age": "votre âge : aux tables d'enfants, le plus jeune commence",
    "cli.plain": "client ligne par ligne, sans plein écran",
    "cli.look_interface": (
        "adresse IPv4 où chercher des tables (par défaut : chaque adresse du réseau local)"
    ),
    "cli.screen": "être l'écran partagé d'une table (s'apparie avec le code d'écran de l'hôte)",
    "cli.screen.code": "le code d'écran de la table (affiché chez l'hôte)",
    "cli.screen.headless": "un simple journal, sans plein écran",
    "cli.play": "jouer contre des bots sur cet ordinateur",
    "cli.play.players": "places à la table, la vôtre comprise (2 à 10, par défaut 4)",
    "cli.play.level": "le niveau des bots (par défaut : «intermediate»)",
    "cli.play.name": "votre nom à la table (par défaut : Joueur)",
}

CATALOGUES: Mapping[str, Mapping[str, str]] = {"en": EN, "fr": FR}

_ENV_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _known(value: str) -> str | None:
    for part in value.split(":"):
        code = part.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return None


def resolve_lang(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``lang`` if given, else the first locale variable that names a known language;
    English otherwise. Accepts ``fr``, ``fr_FR.UTF-8``, ``fr-CA``, ``fr:en``."""
    if lang:
        code = _known(lang)
        if code is None:
            raise ValueError(f"unknown language {lang!r}: choose from {', '.join(LANGUAGES)}")
        return code
    env = os.environ if environ is None else environ
    for name in _ENV_VARIABLES:
        code = _known(env.get(name, ""))
        if code is not None:
            return code
    return "en"


@dataclass(frozen=True, slots=True)
class Translator:
    lang: str

    def __call__(self, key: str, **values: object) -> str:
        template = CATALOGUES[self.lang].get(key) or EN[key]
        return template.format(**values) if values else template

    def you(self, key: str, mine: bool, **values: object) -> str:
        """``key.you`` (the player's own seat, in the second person) when ``mine`` and the
        catalogue has it, else ``key``: "You win the round", never "You wins"."""
        if mine and f"{key}.you" in EN:
            key = f"{key}.you"
        return self(key, **values)

    def plural(self, key: str, count: int, **values: object) -> str:
        """``key_one`` for 1 (and 0 in French), ``key_many`` otherwise."""
        one = count == 1 or (self.lang == "fr" and count == 0)
        return self(f"{key}_{'one' if one else 'many'}", count=count, **values)

    def card(self, code: str) -> str:
        """Plain words for a card code: 'red 7', 'blue Skip', 'Wild Draw Four'."""
        if code in ("W", "W+4", "X"):
            return self(f"rank.{code}")
        color, rank = code[0], code[1:]
        rank_word = self(f"rank.{rank}") if rank in ("S", "R", "+2") else rank
        # "Inversion bleue", "Passe verte": French Skip and Reverse are feminine.
        color_word = self(f"color_f.{color}" if rank in ("S", "R") else f"color.{color}")
        return self("card.colored", color=color_word, rank=rank_word)

    def preset(self, name: str) -> str:
        """A preset's name as this language shows it (a preset from a newer host: as sent)."""
        return self(f"preset.{name}") if f"preset.{name}" in EN else name

    def color(self, letter: str) -> str:
        return self(f"color.{letter}")

    def letters(self) -> dict[str, str]:
        """Protocol letters -> what this language shows on a card chip: the color initials
        (French J and V for jaune and vert) and the two-letter Skip and Reverse."""
        letters = {c: self(f"letter.{c}") for c in "RYGB"}
        letters |= {f"wild:{code}": self(f"chip.{code}") for code in ("W", "W+4", "X")}
        return letters | {f"rank:{rank}": self(f"chip.{rank}") for rank in ("S", "R")}

    def code(self, code: str) -> str:
        """A card code as this language writes it (French ``J7``, ``V+2``, ``Jok``, ``+4``;
        never the protocol's ``W``, which reads as nothing in French)."""
        if code in ("W", "W+4", "X"):
            return self(f"chip.{code}").strip()
        rank = code[1:]
        value = self(f"chip.{rank}") if rank in ("S", "R") else rank
        return self(f"letter.{code[0]}") + value

    def big(self, code: str) -> str:
        """What the shared screen writes large for a top card: ``7``, ``+2``, ``S``/``PA``,
        ``W``/``JOK``, ``W+4``/``+4``."""
        if code in ("W", "X"):
            return self(f"big.{code}") if code == "W" else "X"
        if code == "W+4":
            return self("chip.W+4").strip()
        rank = code[1:]
        return self(f"big.{rank}") if rank in ("S", "R") else rank


def translator(lang: str | None = None) -> Translator:
    return Translator(resolve_lang(lang))
