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
    "prompt.drawn": "You drew a card that fits: play it, or pass.",
    "prompt.drawn_must": "You drew a card that fits: play it.",
    "prompt.choose_color": "Choose the color to play on.",
    "prompt.penalty": "{count} are coming your way: take them, stack, or challenge.",
    "prompt.penalty_simple": "{count} are coming your way: take them.",
    "prompt.gift": "Give away the cards you drew.",
    "prompt.choose_target": "Choose who receives the penalty.",
    "prompt.swap": "Choose a player to swap hands with.",
    "prompt.excess": "Too many cards: return one under the draw pile.",
    "prompt.wait": "Waiting for {name}...",
    "prompt.watching": "You are watching: you will be seated when this game ends.",
    "prompt.round_over": "The round is over.",
    "prompt.timer": "{seconds} s left",
    "prompt.catch": "{name} has one card and did not say UNO: press K to catch them!",
    "prompt.selected": "Selected: {card}",
    "prompt.say_uno": "Press U to say UNO!",
    "prompt.not_legal": "(not playable now)",
    # hand
    "hand.title": "Your hand ({count})",
    "hand.empty": "(no cards)",
    "hand.legend": "[ ] playable  ^ selected  arrows/1-9 choose  Enter plays",
    # pickers
    "picker.color": "Color for {card}:",
    "picker.color_phase": "Choose a color:",
    "picker.gift_first": "Who gets the first card?",
    "picker.gift_second": "Who gets the second card?",
    "picker.gift_one": "Who gets the card?",
    "picker.target": "Who receives the penalty?",
    "picker.swap": "Swap hands with whom?",
    "picker.hint": "arrows or number, Enter to choose, Esc to cancel",
    "picker.hint_color": "R Y G B or arrows, Enter to choose, Esc to cancel",
    # keys
    "key.draw": "draw",
    "key.pass": "pass",
    "key.uno": "UNO!",
    "key.catch": "Counter-UNO",
    "key.challenge": "challenge",
    "key.accept": "take",
    "key.ready": "I'm ready",
    "key.not_ready": "not ready yet",
    "key.quit": "quit",
    # lobby (client)
    "lobby.title": "Lobby: {table}",
    "lobby.waiting": "Waiting for the host to start the game.",
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
    "lobby.press_ready": "Press R when you are ready.",
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
    "end.quit": "Press Q to leave.",
    # errors and closing
    "error.refused": "Refused: {text}",
    "error.rule": "(rule {rule})",
    "bye.reason": "The host closed the connection: {reason}",
    "bye.closed": "The connection is closed.",
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
    "ev.my_seed_unused": (
        "Round {round} was shuffled without your seed (it did not reach the host in time); "
        "the deck still checks out against the seeds that were used."
    ),
    "ev.penalty_pending": "{name} faces {count}.",
    "ev.uno_declared": "{name} says UNO!",
    "ev.uno_exposed": "{name} has one card and did not say UNO.",
    "ev.counter_uno_caught": "{caller} caught {target} without UNO!",
    "ev.counter_uno_missed": "{caller} called Counter-UNO on {target}, too late.",
    "ev.challenged_bluff": "{challenger} challenged {target}: it was a bluff!",
    "ev.challenged_fair": "{challenger} challenged {target}: the Wild Draw Four was fair.",
    "ev.gave": "{name} gave cards to {recipients}.",
    "ev.hands_swapped": "{name} swapped hands with {target}.",
    "ev.hands_rotated": "Everyone passed their hand on.",
    "ev.pile_dealt_out": "{name} dealt the discard pile out to everyone.",
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
    "host.loopback_only": "Only this machine can join: no network is up. "
    "Connect this laptop to the room's Wi-Fi or a cable.",
    "host.options": "Options",
    "host.preset": "Preset: {preset}",
    "host.bot_level": "New bots: {level}",
    "host.keys_lobby": "B add bot  L level  Del remove  P preset  O options  S start  Q quit",
    "host.keys_options": "Up/Down option  Enter/Space change  Esc back",
    "host.keys_play": "Q quit",
    "host.keys_between": "S next round  Del kick  Q quit",
    "host.cannot_start": "Waiting for players (need at least 2 seats filled and ready).",
    "host.can_start": "Ready: press S to start.",
    "host.last_events": "Last events",
    "host.winner": "WINNER",
    "host.value.on": "on",
    "host.value.off": "off",
    "host.value.none": "none",
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
    "level.beginner": "beginner",
    "level.intermediate": "intermediate",
    "level.expert": "expert",
    # plain (line-based) client and headless log
    "plain.help": (
        "Type an action (play R7, play W+4 B, draw, pass, uno, color G, catch 2, "
        "challenge, accept; seats count from 1), or the number of one listed under 'You may', "
        "or: ready, state, help, quit."
    ),
    "plain.welcome": "Welcome to {table} ({preset}): you are seat {seat}.",
    "plain.welcome_watch": (
        "Welcome to {table} ({preset}): you are watching; you will be seated when this game ends."
    ),
    "plain.lobby": "Lobby: {seats}. Type 'ready' when you are.",
    "plain.hand": "Your hand: {cards}",
    "plain.may": "You may: {choices}",
    "plain.choose": "Choose 1 to {count}.",
    "plain.scores": "Scores: {scores}.",
    "plain.away": "{name} is away: the seat is held until they come back.",
    "plain.back": "{name} is back (check number {check}).",
    # second person: the player's own seat ("You win the round", never "You wins")
    "you_object": "you",
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
    "ev.counter_uno_missed.you": "You called Counter-UNO on {target}, too late.",
    "ev.counter_uno_missed.you_target": "{caller} called Counter-UNO on you, too late.",
    "ev.challenged_bluff.you": "You challenged {target}: it was a bluff!",
    "ev.challenged_bluff.you_target": "{challenger} challenged you: it was a bluff!",
    "ev.challenged_fair.you": "You challenged {target}: the Wild Draw Four was fair.",
    "ev.challenged_fair.you_target": "{challenger} challenged you: your Wild Draw Four was fair.",
    "ev.gave.you": "You gave cards to {recipients}.",
    "ev.hands_swapped.you": "You swapped hands with {target}.",
    "ev.hands_swapped.you_target": "{name} swapped hands with you.",
    "ev.pile_dealt_out.you": "You dealt the discard pile out to everyone.",
    "ev.cards_returned.you": "You returned {count} under the draw pile.",
    "ev.timed_out.you": "You ran out of time.",
    "ev.autopilot_on.you": "A bot plays for you until you come back.",
    "ev.autopilot_off.you": "You are back.",
    "ev.round_ended.you": "You win the round: {points}.",
    "ev.game_ended.you": "You win the game!",
    "ev.hand_revealed.you": "Your hand was shown: {cards}.",
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
    "help.close": "Press any key to close this help.",
    "help.c.cards": "Left/Right or 1-9, 0: choose a card",
    "help.c.enter": "Enter or Space: play it (a wild asks for its color)",
    "help.c.basic": "D draw  P pass  U say UNO!",
    "help.c.catch": "K Counter-UNO: catch a player who forgot to say UNO",
    "help.c.challenge": "C challenge a Wild Draw Four",
    "help.c.take": "A take the penalty",
    "help.c.scroll": "PgUp/PgDn: scroll the log",
    "help.c.misc": "R ready (lobby)  Q leave the table  ? this help",
    "help.h.lobby": "Lobby: B add a bot, L bot level, Del remove or kick, P preset, O options",
    "help.h.start": "S start the game, or the next round",
    "help.h.between": "Between rounds: Del kicks the selected player",
    "help.h.scroll": "PgUp/PgDn: scroll the events",
    "help.h.misc": "Q close the table  ? this help",
    "quit.confirm": "Leave the game? Press Y to leave, any other key to stay.",
    "quit.confirm_host": "Close the table for everyone? Press Y to close, any other key to stay.",
    "log.scrolled": "(older lines: PgDn for the newest)",
    "small.title": "This window is too small for lanuno.",
    "small.need": "Make the window bigger: at least {width} x {height} (now {now_w} x {now_h}).",
    "host.code_rotated": "Too many wrong codes: the room code is now {code}.",
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
}

FR: dict[str, str] = {
    "color.R": "rouge",
    "color.Y": "jaune",
    "color.G": "vert",
    "color.B": "bleu",
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
    "rank.W+4": "Super Joker +4",
    "rank.X": "Carte vierge",
    "card.colored": "{rank} {color}",
    "card_one": "{count} carte",
    "card_many": "{count} cartes",
    "seat_name": "Place {seat}",
    "you_suffix": "{name} (vous)",
    "conn.connecting": "connexion...",
    "conn.connected": "connecté",
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
    "prompt.drawn": "La carte piochée convient : jouez-la, ou passez.",
    "prompt.drawn_must": "La carte piochée convient : jouez-la.",
    "prompt.choose_color": "Choisissez la couleur à jouer.",
    "prompt.penalty": "{count} pour vous : prenez-les, empilez ou contestez.",
    "prompt.penalty_simple": "{count} pour vous : prenez-les.",
    "prompt.gift": "Donnez les cartes que vous avez piochées.",
    "prompt.choose_target": "Choisissez qui reçoit la pénalité.",
    "prompt.swap": "Choisissez avec qui échanger votre main.",
    "prompt.excess": "Trop de cartes : remettez-en une sous la pioche.",
    "prompt.wait": "On attend {name}...",
    "prompt.watching": "Vous regardez : vous aurez une place à la fin de cette partie.",
    "prompt.round_over": "La manche est finie.",
    "prompt.timer": "encore {seconds} s",
    "prompt.catch": "{name} a une carte sans avoir dit UNO : appuyez sur K pour le contrer !",
    "prompt.selected": "Choisie : {card}",
    "prompt.say_uno": "Appuyez sur U pour dire UNO !",
    "prompt.not_legal": "(injouable maintenant)",
    "hand.title": "Votre main ({count})",
    "hand.empty": "(aucune carte)",
    "hand.legend": "[ ] jouable  ^ choisie  flèches/1-9 choisir  Entrée joue",
    "picker.color": "Couleur pour {card} :",
    "picker.color_phase": "Choisissez une couleur :",
    "picker.gift_first": "Qui reçoit la première carte ?",
    "picker.gift_second": "Qui reçoit la deuxième carte ?",
    "picker.gift_one": "Qui reçoit la carte ?",
    "picker.target": "Qui reçoit la pénalité ?",
    "picker.swap": "Échanger sa main avec qui ?",
    "picker.hint": "flèches ou numéro, Entrée pour choisir, Échap pour annuler",
    "picker.hint_color": "R J V B ou flèches, Entrée pour choisir, Échap pour annuler",
    "key.draw": "piocher",
    "key.pass": "passer",
    "key.uno": "UNO !",
    "key.catch": "Contre-UNO",
    "key.challenge": "contester",
    "key.accept": "prendre",
    "key.ready": "je suis prêt",
    "key.not_ready": "pas encore prêt",
    "key.quit": "quitter",
    "lobby.title": "Salon : {table}",
    "lobby.waiting": "On attend que l'hôte lance la partie.",
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
    "lobby.press_ready": "Appuyez sur R quand vous êtes prêt.",
    "end.round_title": "Fin de la manche {round}",
    "end.round_winner": "{name} gagne la manche et marque {points}.",
    "end.round_nowinner": "Personne n'a gagné cette manche.",
    "end.game_title": "Partie terminée",
    "end.game_winner": "{name} gagne la partie !",
    "end.game_nowinner": "La partie s'est finie sans gagnant.",
    "end.next_round": "On attend la manche suivante...",
    "end.col_player": "Joueur",
    "end.col_score": "Score",
    "end.quit": "Appuyez sur Q pour partir.",
    "error.refused": "Refusé : {text}",
    "error.rule": "(règle {rule})",
    "bye.reason": "L'hôte a fermé la connexion : {reason}",
    "bye.closed": "La connexion est fermée.",
    "bye.failed": "La connexion a échoué : {reason}",
    "ev.round_started": "La manche {round} commence ; {name} distribue {count} à chacun.",
    "ev.card_turned": "La première carte est {card}.",
    "ev.card_returned": "{card} est retournée dans le paquet.",
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
    "ev.my_seed_unused": (
        "La manche {round} a été mélangée sans votre graine (arrivée trop tard chez l'hôte) ; "
        "le paquet reste vérifié avec les graines utilisées."
    ),
    "ev.penalty_pending": "{name} risque {count}.",
    "ev.uno_declared": "{name} dit UNO !",
    "ev.uno_exposed": "{name} a une carte et n'a pas dit UNO.",
    "ev.counter_uno_caught": "{caller} a contré {target}, qui n'avait pas dit UNO !",
    "ev.counter_uno_missed": "{caller} a tenté un Contre-UNO sur {target}, trop tard.",
    "ev.challenged_bluff": "{challenger} a contesté {target} : c'était du bluff !",
    "ev.challenged_fair": "{challenger} a contesté {target} : le +4 était régulier.",
    "ev.gave": "{name} a donné des cartes à {recipients}.",
    "ev.hands_swapped": "{name} a échangé sa main avec {target}.",
    "ev.hands_rotated": "Chacun a passé sa main au suivant.",
    "ev.pile_dealt_out": "{name} a distribué la défausse à tout le monde.",
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
    "host.loopback_only": "Seul cet ordinateur peut rejoindre : aucun réseau n'est actif. "
    "Reliez cet ordinateur au réseau sans-fil de la salle ou à un câble.",
    "host.options": "Options",
    "host.preset": "Règles : {preset}",
    "host.bot_level": "Nouveaux robots : {level}",
    "host.keys_lobby": "B robot  L niveau  Suppr retirer  P règles  O options  S lancer  Q quitter",
    "host.keys_options": "Haut/Bas option  Entrée/Espace changer  Échap retour",
    "host.keys_play": "Q quitter",
    "host.keys_between": "S manche suivante  Suppr exclure  Q quitter",
    "host.cannot_start": "On attend les joueurs (au moins 2 places occupées et prêtes).",
    "host.can_start": "Tout le monde est prêt : S pour lancer.",
    "host.last_events": "Derniers coups",
    "host.winner": "VAINQUEUR",
    "host.value.on": "oui",
    "host.value.off": "non",
    "host.value.none": "aucun",
    "host.value.challenge": "contestable",
    "host.value.strict": "strict",
    "host.value.free": "libre",
    "host.option_value": "{name} : {value}",
    "opt.stacking": "Cumuler les +2 (T1)",
    "opt.seven_o": "Sept-Zéro (T5)",
    "opt.jump_in": "Interception (T6)",
    "opt.draw_until_playable": "Piocher jusqu'à pouvoir jouer (T7)",
    "opt.wild_draw_four": "Super Joker +4",
    "opt.target": "Points pour gagner",
    "opt.move_timer": "Temps par coup (s)",
    "opt.kids_immune_to_counter_uno": "Enfants protégés du Contre-UNO (KA1)",
    "opt.adults_draw_until_playable": "Adultes piochent jusqu'à jouer (KA2)",
    "opt.kids_stack": "Les enfants peuvent cumuler (KA3)",
    "opt.kids_choose_target": "Les enfants choisissent la cible (KA4)",
    "opt.kids_hit_all_adults": "Les enfants visent tous les adultes (KA5)",
    "level.beginner": "débutant",
    "level.intermediate": "intermédiaire",
    "level.expert": "expert",
    "plain.help": (
        "Tapez une action («play R7», «play W+4 B», «draw», «pass», «uno», «color G», "
        "«catch 2», «challenge», «accept» ; les places se comptent à partir de 1), ou le "
        "numéro d'une action proposée, ou : «ready», «state», «help», «quit»."
    ),
    "plain.welcome": "Bienvenue à {table} ({preset}) : vous êtes à la place {seat}.",
    "plain.welcome_watch": (
        "Bienvenue à {table} ({preset}) : vous regardez ; vous aurez une place à la fin de "
        "cette partie."
    ),
    "plain.lobby": "Salon : {seats}. Tapez «ready» quand vous êtes prêt.",
    "plain.hand": "Votre main : {cards}",
    "plain.may": "Vous pouvez : {choices}",
    "plain.choose": "Choisissez entre 1 et {count}.",
    "plain.scores": "Scores : {scores}.",
    "plain.away": "{name} est absent : sa place est gardée jusqu'à son retour.",
    "plain.back": "{name} est de retour (code de contrôle {check}).",
    "you_object": "vous",
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
    "ev.counter_uno_missed.you": "Vous avez tenté un Contre-UNO sur {target}, trop tard.",
    "ev.counter_uno_missed.you_target": "{caller} a tenté un Contre-UNO contre vous, trop tard.",
    "ev.challenged_bluff.you": "Vous avez contesté {target} : c'était du bluff !",
    "ev.challenged_bluff.you_target": "{challenger} vous a contesté : c'était du bluff !",
    "ev.challenged_fair.you": "Vous avez contesté {target} : le +4 était régulier.",
    "ev.challenged_fair.you_target": "{challenger} vous a contesté : votre +4 était régulier.",
    "ev.gave.you": "Vous avez donné des cartes à {recipients}.",
    "ev.hands_swapped.you": "Vous avez échangé votre main avec {target}.",
    "ev.hands_swapped.you_target": "{name} a échangé sa main avec vous.",
    "ev.pile_dealt_out.you": "Vous avez distribué la défausse à tout le monde.",
    "ev.cards_returned.you": "Vous avez remis {count} sous la pioche.",
    "ev.timed_out.you": "Vous n'avez pas joué à temps.",
    "ev.autopilot_on.you": "Un robot joue pour vous jusqu'à votre retour.",
    "ev.autopilot_off.you": "Vous êtes de retour.",
    "ev.round_ended.you": "Vous gagnez la manche : {points}.",
    "ev.game_ended.you": "Vous gagnez la partie !",
    "ev.hand_revealed.you": "Votre main a été montrée : {cards}.",
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
    "help.close": "Appuyez sur une touche pour fermer cette aide.",
    "help.c.cards": "Gauche/Droite ou 1-9, 0 : choisir une carte",
    "help.c.enter": "Entrée ou Espace : la jouer (un joker demande sa couleur)",
    "help.c.basic": "D piocher  P passer  U dire UNO !",
    "help.c.catch": "K Contre-UNO : attraper un joueur qui a oublié de dire UNO",
    "help.c.challenge": "C contester un Super Joker +4",
    "help.c.take": "A prendre la pénalité",
    "help.c.scroll": "PgUp/PgDn : faire défiler l'historique",
    "help.c.misc": "R prêt (salon)  Q quitter la table  ? cette aide",
    "help.h.lobby": "Salon : B robot, L niveau, Suppr retirer ou exclure, P règles, O options",
    "help.h.start": "S lancer la partie, ou la manche suivante",
    "help.h.between": "Entre les manches : Suppr exclut le joueur choisi",
    "help.h.scroll": "PgUp/PgDn : faire défiler l'historique",
    "help.h.misc": "Q fermer la table  ? cette aide",
    "quit.confirm": "Quitter la partie ? Y pour partir, une autre touche pour rester.",
    "quit.confirm_host": "Fermer la table pour tous ? Y pour fermer, une autre touche pour rester.",
    "log.scrolled": "(lignes plus anciennes : PgDn pour les dernières)",
    "small.title": "Cette fenêtre est trop petite pour lanuno.",
    "small.need": (
        "Agrandissez la fenêtre : au moins {width} x {height} (actuellement {now_w} x {now_h})."
    ),
    "host.code_rotated": "Trop de codes erronés : le code de la salle est maintenant {code}.",
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
        "Vous avez une carte {color} : le Super Joker +4 n'est permis que sans carte de la "
        "couleur demandée."
    ),
    "refusal.no_match": "{card} ne va pas sur {top} (la couleur est {color}).",
    "refusal.jump_late": "On ne s'interpose qu'avant que le joueur suivant agisse.",
    "refusal.jump_identical": "Pour vous interposer, jouez une carte identique à celle de la pile.",
    "refusal.no_stacking": "On ne cumule pas ici : prenez la pénalité.",
    "refusal.stack_what": "Seul un +2 sur un +2, ou un Super Joker +4, se cumule.",
    "refusal.drawn_already": "Vous avez déjà pioché ce tour-ci.",
    "refusal.must_play": "Vous pouvez jouer une carte, donc vous ne pouvez pas piocher.",
    "refusal.pass_after_draw": "Vous ne pouvez passer qu'après avoir pioché.",
    "refusal.drawn_fits": "La carte piochée convient : il faut la jouer.",
    "refusal.choose_color": "Choisissez rouge, jaune, vert ou bleu.",
    "refusal.no_challenge_table": "À cette table, le Super Joker +4 ne se conteste pas.",
    "refusal.challenge_what": "Seul un Super Joker +4 qui vous vise peut être contesté.",
    "refusal.no_penalty": "Il n'y a pas de pénalité à prendre.",
    "refusal.uno_already": "Vous avez déjà dit UNO.",
    "refusal.uno_when": "Dites UNO avec deux cartes avant d'en jouer une, ou avec la dernière.",
    "refusal.counter_other": "Le Contre-UNO vise un autre joueur.",
    "refusal.no_counter_uno": "Pas de Contre-UNO à cette table.",
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
    "chip.W+4": "J+4",
    "chip.X": " ? ",
    "big.S": "PA",
    "big.R": "IN",
    "big.W": "JOK",
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
        return self("card.colored", color=self(f"color.{color}"), rank=rank_word)

    def color(self, letter: str) -> str:
        return self(f"color.{letter}")

    def letters(self) -> dict[str, str]:
        """Protocol letters -> what this language shows on a card chip: the color initials
        (French J and V for jaune and vert) and the two-letter Skip and Reverse."""
        letters = {c: self(f"letter.{c}") for c in "RYGB"}
        letters |= {f"wild:{code}": self(f"chip.{code}") for code in ("W", "W+4", "X")}
        return letters | {f"rank:{rank}": self(f"chip.{rank}") for rank in ("S", "R")}

    def code(self, code: str) -> str:
        """A card code as this language writes it (French ``J7``, ``V+2``, ``Jok``, ``J+4``;
        never the protocol's ``W``, which reads as nothing in French)."""
        if code in ("W", "W+4", "X"):
            return self(f"chip.{code}").strip()
        rank = code[1:]
        value = self(f"chip.{rank}") if rank in ("S", "R") else rank
        return self(f"letter.{code[0]}") + value

    def big(self, code: str) -> str:
        """What the shared screen writes large for a top card: ``7``, ``+2``, ``S``/``PA``,
        ``W``/``JOK``, ``W+4``/``J+4``."""
        if code in ("W", "X"):
            return self(f"big.{code}") if code == "W" else "X"
        if code == "W+4":
            return self("chip.W+4")
        rank = code[1:]
        return self(f"big.{rank}") if rank in ("S", "R") else rank


def translator(lang: str | None = None) -> Translator:
    return Translator(resolve_lang(lang))
