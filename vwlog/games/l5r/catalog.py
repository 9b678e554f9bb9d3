"""The catalog of L5R's battle rules: each rule's id, English title, status and the Croatian
sentence(s) of the seed (``001_b10cf56d30126b73``) it comes from, verbatim.

Status: ``enforced`` (every case the log can show is judged), ``partial`` (judged where the
log and the card data say enough; see the note), ``pending`` (not judged yet) or
``descriptive`` (nothing a log can break).

Where the rules digest and the seed disagree the seed wins; the differences are noted in
`NOTES`.
"""

# ruff: noqa: E501  (each quote as the seed writes it, one line)

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from vwlog.games.common import Rule

CATALOG: Final = MappingProxyType(
    {
        "L5R-BTL-1": Rule(
            "A battle is fought at a chosen battlefield: the battlefield is chosen, then both sides enter the battle.",
            "enforced",
            ("Nakon odabira Bojišta, obje strane ulaze u Bitku.",),
        ),
        "L5R-BTL-2": Rule(
            "The cards at a battlefield are the units their players designated for that battle.",
            "enforced",
            (
                "Tu lokaciju „zauzimaju“ karte koje je igrač označio da će sudjelovati u Bitci.",
                "ta borbena jedinica ili karta mora biti na trenutnom Bojištu tj. u trenutnoj Bitci.",
            ),
        ),
        "L5R-BTL-3": Rule(
            "A battle has a Combat segment, then a Resolution segment, each once.",
            "enforced",
            ("Svaka Bitka ima dio Borbe (Combat) i dio Razrješenja (Resolution).",),
        ),
        "L5R-BTL-4": Rule(
            "A battle outside the Attack phase needs an effect that creates it.",
            "partial",
            (
                "Većina Bitki se događa upravo u Attack fazi no neki efekti ih mogu stvoriti i izvan ove faze.",
            ),
        ),
        "L5R-BTL-5": Rule(
            "Battles are fought one at a time.",
            "enforced",
            (
                "gdje smo stali kod odabira Bojišta i spremali se razriješiti prvu Bitku.",
                "a cijela faza završava kada je i posljednja Bitka Razrješena.",
            ),
        ),
        "L5R-BTL-6": Rule(
            "The Attack phase ends when its last battle is resolved, and not before.",
            "enforced",
            (
                "Nakon toga se Bitka smatra završenom, a cijela faza završava kada je i posljednja Bitka Razrješena.",
            ),
        ),
        "L5R-CMB-1": Rule(
            "The defender has the first opportunity of Combat.",
            "enforced",
            ("Igrač koji je napadnut ima prvu priliku odigrati akciju ili propustiti priliku.",),
        ),
        "L5R-CMB-2": Rule(
            "Opportunities alternate between the players, one action or one pass each.",
            "enforced",
            (
                "Bitka ili vođenje Bitke je proces kada oba igrača odigravaju Battle akcije naizmjence.",
            ),
        ),
        "L5R-CMB-3": Rule(
            "Combat ends, and Resolution begins, exactly when both players have passed in a row.",
            "enforced",
            (
                "U Borbi igrači naizmjence odigravaju Battle akcije ili propuštaju prilike sve dok oba igrača uzastopno ne propuste priliku nakon čega se prelazi na Razrješenje.",
            ),
        ),
        "L5R-CMB-4": Rule(
            "The actions taken in Combat are Battle actions.",
            "enforced",
            ("U Borbi igrači naizmjence odigravaju Battle akcije ili propuštaju prilike",),
        ),
        "L5R-CMB-5": Rule(
            "Presence rule: an action needs a unit of its player in the current battle.",
            "enforced",
            (
                "Pravilo prisutnosti: Da bi akcija bila legalna igrač mora imati barem jednu borbenu jedinicu u Bitci koja se trenutno odvija.",
            ),
        ),
        "L5R-CMB-6": Rule(
            "Location rule: an action's source unit and targets are at the current battlefield.",
            "partial",
            (
                "Pravilo lokacije: Da bi igrač iskoristio akciju unutar borbene jedinice (recimo na Follower karti) ili Označio neku kartu kao Metu akcije, ta borbena jedinica ili karta mora biti na trenutnom Bojištu tj. u trenutnoj Bitci.",
            ),
        ),
        "L5R-CMB-7": Rule(
            "An action that can bring a unit into the battle is exempt from the presence and location rules.",
            "partial",
            (
                "Ipak, postoji izuzetak: Battle akcije koje mogu uvesti borbenu jedinicu u trenutnu Bitku se mogu uzeti neovisno o pravilu lokacije ili prisutnosti ako su ispunjeni svi ostali uvjeti takve karte.",
            ),
        ),
        "L5R-CMB-8": Rule(
            "A Personality takes part in the Resolution of one battle per turn.",
            "enforced",
            (
                "Još jedna stvar koju je važno znati jest da Personality karte mogu sudjelovati u Razrješenju samo jedne Bitke po potezu.",
                "To znači da se Personality ne može uvesti u Bitku, pomoću raznih akcija, ako je već sudjelovao u Razrješenju Bitke odnosno da jedan Personality ne može sudjelovati u Razrješenju više od jedne Bitke po krugu.",
            ),
        ),
        "L5R-RES-1": Rule(
            "An army's Force is the total Force of its unbowed Personalities and Followers.",
            "enforced",
            (
                "Napadač i Branitelj zbroje ukupnu Snagu svojih karti u Bitci što se smatra Snagom Vojske.",
                "Snaga Vojske je ukupna Snaga svih unbowanih Personality i Follower karti koje je sačinjavaju.",
            ),
        ),
        "L5R-RES-2": Rule(
            "A side without units has Force 0.",
            "enforced",
            ("Ona strana koja nema borbenih jedinica ima Snagu u vrijednosti 0.",),
        ),
        "L5R-RES-3": Rule(
            "The side with the greater Force wins the battle.",
            "enforced",
            ("Ona strana koja ima veću Snagu je pobjednička.",),
        ),
        "L5R-RES-4": Rule(
            "A winning attacker destroys every card of the defending army.",
            "enforced",
            (
                "Ako Napadačeva Vojska ima veću Snagu tada uništava sve karte u protivničkoj, Obrambenoj Vojsci.",
            ),
        ),
        "L5R-RES-5": Rule(
            "The Province falls when the attacker's Force exceeds the defender's plus the Province strength.",
            "enforced",
            (
                "Ukoliko je Snaga Napadačeve Vojske veća od ukupne snage protivničke Vojske plus protivnička Snaga Provincije, tada je Napadač uništio i protivničku Provinciju na čijem se Bojištu dogodila Bitka.",
            ),
        ),
        "L5R-RES-6": Rule(
            "A destroyed Province's cards and attached Regions are discarded.",
            "enforced",
            (
                "Kada je Provincija uništena iz nje se odbacuju sve karte kao i svaka pridružena Regija.",
            ),
        ),
        "L5R-RES-7": Rule(
            "A winning defender destroys every card of the attacking army.",
            "enforced",
            ("Ako Braniteljeva Vojska pobijedi tada su uništene sve karte u Napadačevoj Vojsci.",),
        ),
        "L5R-RES-8": Rule(
            "The winner gains twice as much Family Honor as the opposing cards it destroyed.",
            "enforced",
            (
                "Nakon toga, pobjednik Bitke dobiva onoliko bodova Obiteljske Časti koliko je uništio protivničkih karti u Razrješenju, umnoženo za dva.",
            ),
        ),
        "L5R-RES-9": Rule(
            "On equal Force both armies are destroyed and each player gains honor for the cards it destroyed.",
            "enforced",
            (
                "Ukoliko je borba izjednačena (obje Vojske imaju jednaku Snagu) tada je borba izjednačena te su uništene karte u obje Vojske (smatra se da je jedan igrač uništio sve karte drugoga i obratno) i svaka dobije onoliko bodova Časti koliko je karti uništio protivniku.",
            ),
        ),
        "L5R-RES-10": Rule(
            "Forces of 0 with a side without units: the battle has no outcome.",
            "enforced",
            (
                "U slučaju da su Vojske izjednačene na iznosu Snage jednakom nula i jedna ili obje strane nemaju borbenu jedinicu u Bitci tada Bitka nema ishod.",
            ),
        ),
        "L5R-RES-11": Rule(
            "The Resolution ends; then the attacking units at the battlefield bow and go Home.",
            "enforced",
            (
                "Kada su svi ovi efekti provedeni, Razrješenje Bitke je završeno.",
                "Zatim se sve Napadačke jedinice na tom Bojištu bowaju i povuku Kući, kao efekt Razrješenja.",
            ),
        ),
        "L5R-RES-12": Rule(
            "The defender's units go Home, unbowed, only at the end of the Attack phase.",
            "enforced",
            (
                "Braniteljeve jedinice ostaju na Bojištu i vraćaju se Kući tek na kraju Attack faze i to bez bowanja.",
            ),
        ),
        "L5R-RES-13": Rule(
            "Then the battle is over.",
            "enforced",
            ("Nakon toga se Bitka smatra završenom",),
        ),
        "L5R-TXT-1": Rule(
            "Title: conducting a battle.",
            "descriptive",
            ("Vođenje bitke",),
        ),
        "L5R-TXT-2": Rule(
            "The Attack phase has several steps, described earlier in the guide (not in the fragment).",
            "descriptive",
            ("Kao što je opisano prije, Attack faza prolazi kroz nekoliko koraka.",),
        ),
        "L5R-TXT-3": Rule(
            "Scope: what happens after the attacking and defending armies are determined.",
            "descriptive",
            (
                "Ovdje ćemo se pozabaviti onime što se događa nakon što se odredi Napadačka i Obrambena Vojska, točnije – kako se vode i razrješavaju Bitke.",
            ),
        ),
        "L5R-TXT-4": Rule(
            "Where the previous page stopped (choosing battlefields, about to resolve the first battle); its ordering content is used by L5R-BTL-5.",
            "descriptive",
            (
                "Nešto kratko je rečeno prije samo da dobijete uvid kako stvar teče i gdje smo stali kod odabira Bojišta i spremali se razriješiti prvu Bitku.",
            ),
        ),
        "L5R-TXT-5": Rule(
            "Announces the battlefield/battle distinction.",
            "descriptive",
            (
                "Sada slijedi nastavak, no prvo bih pojasnio razliku između Bojišta i Bitke ukoliko već nije jasna.",
            ),
        ),
        "L5R-TXT-6": Rule(
            "A battlefield is only a name for an imagined place on the table where a battle is fought.",
            "descriptive",
            ("Bojište je samo naziv za zamišljenu lokaciju na stolu gdje će se voditi Bitka.",),
        ),
        "L5R-TXT-7": Rule(
            '"Battle" is only a name for a part of the game.',
            "descriptive",
            ("Dakle, samo naziv za jedan dio igre.",),
        ),
        "L5R-TXT-8": Rule(
            "Narrative connectors.",
            "descriptive",
            (
                "Vratimo se igri.",
                "Kako bi uspješno odigrao akciju, svaki igrač mora slijediti sljedeća pravila:",
            ),
        ),
        "L5R-TXT-9": Rule(
            "The player who lost a Province moves both decks closer together, to show the loss and track the opponent's progress (table presentation; not an event).",
            "descriptive",
            (
                "Igrač koji je izgubio Provinciju zatim približava oba špila kako bi se gubitak bolje prikazao i lakše pratio napredak protivnika.",
            ),
        ),
        "L5R-TXT-10": Rule(
            "Worked example of L5R-RES-8: three destroyed cards give 6 honor (a test vector).",
            "descriptive",
            ("Dakle, ukoliko su uništene tri karte, pobjednik će dobiti 6 bodova Časti.",),
        ),
        "L5R-TXT-11": Rule(
            "Page navigation: the fragment is one page of a series.",
            "descriptive",
            ("< Prethodna || Sljedeća >",),
        ),
    }
)
"""Every L5R rule id -> its rule."""

NOTES: Final = MappingProxyType(
    {
        "L5R-BTL-4": (
            "Judged: a battle outside the Attack phase must name the card whose effect creates "
            "it, a card of the choosing player. Not judged: whether that card can create a "
            "battle (the card data has no such field)."
        ),
        "L5R-CMB-7": (
            "Judged: an action may name units to bring in only if its card data says it can "
            "bring a unit; the exemption's reach is flag bring_in_exemption. Not judged: "
            "'all other conditions of the card', which card data does not state."
        ),
        "L5R-CMB-6": (
            "Judged for units and the attachments on them (an attachment is where its unit "
            "is). Not judged: cards in a Province and Regions as targets, which the log's card "
            "data does not place (they are cited as unknown cards, CORE-ID-2)."
        ),
        "L5R-OQ-1": (
            "The digest lists actions_per_opportunity; the seed settles it («U Borbi igrači "
            "naizmjence odigravaju Battle akcije ili propuštaju prilike»): one action or one "
            "pass per opportunity, no flag."
        ),
    }
)
"""What a partial rule leaves out, and where the seed overrules the digest."""

TITLES: Final = MappingProxyType({rid: rule.title for rid, rule in CATALOG.items()})
"""Rule id -> title, for `vwlog.games.GameRules.catalog`."""

ENFORCEABLE: Final = tuple(rid for rid, r in CATALOG.items() if r.status != "descriptive")
"""The rules a log can break."""

__all__ = ["CATALOG", "ENFORCEABLE", "NOTES", "TITLES", "Rule"]
