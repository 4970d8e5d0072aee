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
    "prompt.penalty": "{count} cards are coming your way: take them, stack, or challenge.",
    "prompt.penalty_simple": "{count} cards are coming your way: take them.",
    "prompt.gift": "Give away the cards you drew.",
    "prompt.choose_target": "Choose who receives the penalty.",
    "prompt.swap": "Choose a player to swap hands with.",
    "prompt.excess": "Too many cards: return one under the draw pile.",
    "prompt.wait": "Waiting for {name}...",
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
    "end.round_winner": "{name} wins the round and scores {points} points.",
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
    "ev.round_started": "Round {round} starts; {name} deals {count} cards each.",
    "ev.card_turned": "The first card is {card}.",
    "ev.card_returned": "{card} went back into the deck.",
    "ev.played": "{name} played {card}.",
    "ev.jumped_in": "{name} jumped in with {card}.",
    "ev.played_chose": "{name} played {card} and chose {color}.",
    "ev.color_chosen": "{name} chose {color}.",
    "ev.drew_one": "{name} drew a card.",
    "ev.drew_many": "{name} drew {count} cards.",
    "ev.drew_penalty": "{name} took the penalty: {count} cards.",
    "ev.drew_caught": "{name} was caught and drew {count} cards.",
    "ev.drew_challenge": "{name} drew {count} cards after the challenge.",
    "ev.drew_timeout": "{name} ran out of time and drew {count} cards.",
    "ev.drew_gift": "{name} drew {count} cards to give away.",
    "ev.passed": "{name} passed.",
    "ev.skipped": "{name} is skipped.",
    "ev.direction_cw": "Play goes clockwise now.",
    "ev.direction_ccw": "Play goes counter-clockwise now.",
    "ev.reshuffled": "The discard pile was shuffled into a new draw pile ({count} cards).",
    "ev.my_seed_unused": (
        "Round {round} was shuffled without your seed (it did not reach the host in time); "
        "the deck still checks out against the seeds that were used."
    ),
    "ev.penalty_pending": "{name} faces {count} cards.",
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
    "ev.cards_returned": "{name} returned {count} cards under the draw pile.",
    "ev.timed_out": "{name} ran out of time.",
    "ev.autopilot_on": "A bot plays for {name} until they come back.",
    "ev.autopilot_off": "{name} is back.",
    "ev.round_ended": "{name} wins the round: {points} points.",
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
    "host.options": "Options",
    "host.preset": "Preset: {preset}",
    "host.bot_level": "New bots: {level}",
    "host.keys_lobby": "B add bot  L bot level  Del remove/kick  P preset  O options  "
    "S start  Q quit",
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
    "prompt.penalty": "{count} cartes pour vous : prenez-les, empilez ou contestez.",
    "prompt.penalty_simple": "{count} cartes pour vous : prenez-les.",
    "prompt.gift": "Donnez les cartes que vous avez piochées.",
    "prompt.choose_target": "Choisissez qui reçoit la pénalité.",
    "prompt.swap": "Choisissez avec qui échanger votre main.",
    "prompt.excess": "Trop de cartes : remettez-en une sous la pioche.",
    "prompt.wait": "On attend {name}...",
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
    "end.round_winner": "{name} gagne la manche et marque {points} points.",
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
    "ev.round_started": "La manche {round} commence ; {name} distribue {count} cartes.",
    "ev.card_turned": "La première carte est {card}.",
    "ev.card_returned": "{card} est retournée dans le paquet.",
    "ev.played": "{name} a joué {card}.",
    "ev.jumped_in": "{name} s'est interposé avec {card}.",
    "ev.played_chose": "{name} a joué {card} et choisi le {color}.",
    "ev.color_chosen": "{name} a choisi le {color}.",
    "ev.drew_one": "{name} a pioché une carte.",
    "ev.drew_many": "{name} a pioché {count} cartes.",
    "ev.drew_penalty": "{name} a pris la pénalité : {count} cartes.",
    "ev.drew_caught": "{name} a été contré et pioche {count} cartes.",
    "ev.drew_challenge": "{name} a pioché {count} cartes après la contestation.",
    "ev.drew_timeout": "{name} n'a pas joué à temps et pioche {count} cartes.",
    "ev.drew_gift": "{name} a pioché {count} cartes à donner.",
    "ev.passed": "{name} a passé.",
    "ev.skipped": "{name} passe son tour.",
    "ev.direction_cw": "Le jeu tourne maintenant dans le sens horaire.",
    "ev.direction_ccw": "Le jeu tourne maintenant dans le sens antihoraire.",
    "ev.reshuffled": "La défausse a été mélangée en une nouvelle pioche ({count} cartes).",
    "ev.my_seed_unused": (
        "La manche {round} a été mélangée sans votre graine (arrivée trop tard chez l'hôte) ; "
        "le paquet reste vérifié avec les graines utilisées."
    ),
    "ev.penalty_pending": "{name} risque {count} cartes.",
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
    "ev.cards_returned": "{name} a remis {count} cartes sous la pioche.",
    "ev.timed_out": "{name} n'a pas joué à temps.",
    "ev.autopilot_on": "Un robot joue pour {name} jusqu'à son retour.",
    "ev.autopilot_off": "{name} est de retour.",
    "ev.round_ended": "{name} gagne la manche : {points} points.",
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
        return letters | {f"rank:{rank}": self(f"chip.{rank}") for rank in ("S", "R")}


def translator(lang: str | None = None) -> Translator:
    return Translator(resolve_lang(lang))
