"""The English phrase families of the prompt classifier, by reason code (see ``classify`` for what each code
means and how the families are run).

May import: ``patterns`` only. Must not import: ``classify`` (it imports this) or anything that reads files: the
table is loaded on the prompt path.
"""

from __future__ import annotations

from .patterns import REASONS, cue
from .patterns import family as _p

__all__ = ["ENGLISH", "ACT", "APPROVAL"]

_NEG, _COR, _REC, _RES, _RHE, _EXP = REASONS
#: "you <past or -ing verb> ... again" but not a request ("can you run it again", "thank you again")
_YOU_AGAIN = (r"(?<!can )(?<!could )(?<!would )(?<!will )(?<!please )(?<!thank )\byou(?:'ve| have|'re| are)?\s+"
              r"(?:\w+ed|did|made|broke|broken|forgot|forgotten|wrote|written|put|left|lost|took|ran|doing|"
              r"messed|screwed)\b(?:(?!\b(?:can|could|would|will|please) you\b)[^.?!;\n]){0,40}?\bagain\b")
_BAD = r"(?:wrong|broken|fail\w*|error\w*|crash\w*|missing|ignored?|forgot\w*)"
_SUBJECT = r"\b(?:that|this|it|everything|your (?:\w+ )?(?:code|fix|change|patch|answer|version|solution))(?: \w+)?"
_VERDICT = ("wrong|incorrect|broken|terrible|awful|horrible|useless|garbage|nonsense|sloppy|a mess|worse|"
            "overengineered|over-engineered|overcomplicated|over-complicated|overkill|convoluted|bloated")

#: a past tense or participle: "-ed" (not "need", "proceed", "feed") or an irregular one
_PAST = (r"(?:\w{2,}ed(?<!need)(?<!ceed)(?<!feed)(?<!speed)(?<!bleed)(?<!embed)|wrote|written|made|broke|broken|put|"
         r"left|took|taken|ran|gave|given|said|told|did|done|chose|chosen|threw|thrown|built|sent|forgot|forgotten|"
         r"got|gotten|went|set|cut|hid|hidden|undid|undone|rewrote|rewritten|overwrote|overwritten|lost|split|kept|"
         r"brought|spent|stuck|meant)")
#: an act of the agent, done: "you renamed", "you've rewritten", "the test you wrote", "your migration dropped",
#: "that answer", "your patch"; not a request or a question about one ("can you ...", "did you ...?", "have you
#: ...?", "thank you")
ACT = (r"(?:(?<!\bcan )(?<!\bcould )(?<!\bwould )(?<!\bwill )(?<!\bdid )(?<!\bdo )(?<!\bhave )(?<!\bhad )"
       r"(?<!\bthank )(?<!\bif )(?<!\bplease )\byou(?:'ve| have| had)? (?:just |also |then |simply |completely |"
       r"already |apparently )?|\byour (?:\w+ )?\w+ )" + _PAST + r"\b|"
       r"(?<!\bcan )(?<!\bif )(?<!\bwhen )(?<!\bonce )(?<!\bbefore )(?<!\bafter )(?<!\bshould )(?<!\bdo )\byou "
       r"(?:call|catch|use|import|return|create|open|pass|store|load|parse|retry|swallow|ignore|hardcode|mutate|"
       r"sleep|spawn|print|log)\b(?! to\b)|"
       r"\b(?:that|this|your) (?:answer|suggestion|explanation|claim|advice|reply|response|summary)\b|"
       r"\byour (?:\w+ )?(?:code|docs|docstring|readme|comment|description|plan|review|"
       r"tests?|fix|change|patch|script|function|version|migration|refactor\w*|commit|pr|implementation|query|edit|"
       r"rewrite|solution|approach)\b")
#: approval in the prompt: a cue next to an act is then no complaint ("you silenced the warning, thanks")
APPROVAL = (r"\b(?:thanks|thank you|as (?:i )?(?:asked|planned|requested|discussed|agreed)|well done|good job|nice|"
            r"great|perfect|exactly what i|looks good|lgtm)\b")
_COUNT = (r"(?:0*[1-9]\d*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
          r"a hundred|hundreds|dozens|a dozen|a bunch)")

#: English patterns, by reason code
ENGLISH = (
    _p(_NEG, _VERDICT + "|not right|not correct|not working",
       _SUBJECT + r"(?:'s| is| was| looks| seems)\s+(?:\w+\s+)?(?:" + _VERDICT
       + r"|not (?:right|correct|working))\b"),
    _p(_NEG, "n't|not", _SUBJECT + r"\s+(?:still\s+)?(?:doesn't|does not|didn't|did not|won't|isn't|is not)\s+"
       r"(?:even\s+)?(?:work|working|compile|run|fix (?:it|anything|the)|address|solve|help|change anything)\b"),
    _p(_NEG, " now", r"\b(?:is|are)\s+(?:\w+\s+)?(?:broken|red|failing|down|gone|missing) now\b|\bnow (?:nothing|none "
       r"of (?:it|them)|everything|the (?:build|tests?|app|ci)) (?:\w+ )?(?:compiles|works|runs|passes|builds|fails|"
       r"is (?:broken|red|failing))\b"),
    # praise next to a breakage is sarcasm ("The build is broken now, nice job.")
    _p(_NEG, "job|work|going|well done|brilliant|bravo|thanks|way to go|genius|great|good|wonderful|perfect|lovely|"
       "awesome|fantastic|wow",
       r"^(?=.*\b(?:(?:nice|great|good|fantastic|excellent|amazing) (?:job|work|going)|well done|brilliant|bravo|"
       r"thanks a lot|thanks for nothing|way to go|genius|(?:great|good|wonderful|perfect|lovely|awesome|fantastic),? "
       r"now|wow)\b)"
       r"(?=.*\b(?:broken|broke|nothing (?:\w+ )?(?:works|compiles|runs|resolves|loads|passes|builds)|none of "
       r"(?:the|them|it|my)|no longer|stopped working|(?:doesn't|won't) (?:work|compile|run|build|load|start)|"
       r"(?:is|are) red|worse|removed all|deleted all|fails?|failing|crash\w*|gone)\b)"),
    _p(_NEG, "made up|invented|fabricated|hallucinated",
       r"\byou (?:just )?(?:made up|invented|fabricated|hallucinated)\b"),
    _p(_NEG, "the whole|the entire|all ", r"\byou (?:just )?(?:rewrote|rewritten|replaced|reformatted|deleted|removed|"
       r"changed|touched) (?:the whole|the entire|all (?:the|of|my)|every)\b"),
    _p(_NEG, "you deleted|you removed|you dropped|you lost|go", r"\byou (?:deleted|removed|dropped|lost|erased) "
       r"(?:them|all|my)\b|\bwhere (?:did|have) (?:my|the|all (?:the|my)) \w+(?: \w+)? go(?:ne)?\b"),
    _p(_NEG, "circles", r"\b(?:going|running|walking) (?:around )?in circles\b"),
    _p(_NEG, "your", r"\b(?:dropped|broke|fails?|failing|regressed|slower|crash\w*|stopped working)\b[^.?!\n]{0,40}"
       r"\b(?:after|since) your (?:last )?(?:change|patch|fix|commit|edit|refactor\w*)\b|\bregression is yours\b|"
       r"\byour (?:last )?(?:change|patch|fix|commit|edit) (?:broke|caused|introduced)\b"),
    _p(_NEG, "wrong|mistaken|not listening|making",
       r"\byou(?:'re| are| were)\s+(?:\w+\s+)?(?:wrong|mistaken|not listening|making (?:it|this|things) "
       r"(?:up|worse))\b"),
    _p(_NEG, "over|making", r"\byou(?:'re| are) (?:\w+ )?(?:over\w+ing|making (?:this|it) (?:complicated|harder))\b"),
    _p(_NEG, "broke|messed up|screwed up|ruined|botched|mangled|butchered|hallucinated|made|wiped|nuked|clobbered|"
       "trashed|corrupted|wrecked|destroyed",
       r"\byou(?:'ve| have)?\s+(?:just\s+|completely\s+|totally\s+)?(?:broke|broken|messed up|screwed up|ruined|"
       r"botched|mangled|butchered|hallucinated|made (?:it|this|things) worse|made (?:that|this|it) up|wiped|nuked|"
       r"clobbered|trashed|corrupted|wrecked|destroyed)\b"),
    # a failure since the agent's change: "since you touched the cache, half the tests fail"
    _p(_NEG, "after you|since you", r"\b(?:after|since) you (?:\w+ed|made|ran|wrote|did|broke)\b[^.?!\n]{0,60}"
       r"\b(?:fails?|failing|broke|broken|crash\w*|stopped|errors?|red|no longer|doesn't|won't|can't|nothing)\b"),
    _p(_NEG, "ignored|overlooked|skipped|missed|forgot|dropped|overwrote|coded|misread|misunderstood|misinterpreted",
       r"\byou (?:just )?(?:ignored|overlooked|skipped|missed|forgot|dropped|overwrote|hard-?coded|misread|"
       r"misunderstood|misinterpreted)\b"),
    _p(_NEG, "broke|ruined|wrecked|destroyed",
       r"\b(?:that|this|it|your \w+) (?:just )?(?:broke|ruined|wrecked|destroyed)\b"),
    _p(_NEG, "introduced|caused|created",
       r"\b(?:your (?:\w+ )?(?:change|fix|patch|commit|edit|refactor\w*)|you) (?:introduced|caused|created) "
       r"(?:a |an |the )?(?:regression|bug|error|failure|problem)"),
    _p(_NEG, "nothing", r"\b(?:fix|change|patch|edit|attempt|commit|that|this|it|which) (?:fixes|fixed|changes|changed|"
       r"solves|solved|does|did|helps|helped) (?:absolutely |literally )?nothing\b"),
    # harm done in an earlier session points at earlier work by itself (no referent in this one)
    _p(_NEG, "last|yesterday|earlier|before", r"\b(?:last (?:session|time|week|night)|yesterday|earlier today|the "
       r"other day|before),? you (?:just )?(?:(?:\w+ed|wrote|made|gave|did|ran)\b[^.?!\n]{0,60}?\b)?(?:wiped|broke|"
       r"broken|deleted|removed|overwrote|overwritten|lost|messed|ruined|clobbered|corrupted|destroyed|careful|"
       r"again)\b",
       standalone=True),
    _p(_NEG, "hack|kludge|band", r"\b(?:that|this|it)(?:'s| is) (?:a |an )?(?:\w+ )?(?:hack|kludge|band-?aid)\b"),
    _p(_NEG, "sense|wtf|ffs|ugh|for once", r"\b(?:makes no sense|doesn't make (?:any )?sense|wtf|ffs|ugh+|for once)\b"),
    _p(_NEG, "wrong ", r"\bwrong (?:again|file|function|place|approach|answer|fix|branch|directory|way)\b"),
    _p(_NEG, "seriously|come on", r"^\s*(?:seriously|come on)\b"),
    _p(_COR, "no|nah", r"^\s*(?:no|nope|nah)(?:[\s,.!]+(?:no|nope))*\s*[,.!;:\u2014]+\s*\S"),
    _p(_COR, "what i", r"\b(?:not|isn't|wasn't|opposite of) what i (?:asked|wanted|meant|said|need|had in mind|was "
       r"(?:asking|going|looking) for|expected|requested|told you)\b"),
    _p(_COR, "that's not|that is not", r"\bthat(?:'s| is) not (?:right|correct|true|it|how)\b"),
    _p(_COR, "i meant|i said|i wanted|i asked for|i needed",
       r"\bi (?:meant|said|wanted|asked for|needed) [^.?!\n]{1,60}\bnot\b(?! (?:sure|yet|only)\b)"),
    _p(_COR, "stop|quit", r"\b(?:stop|quit)\s+(?:\w+\s+)?(?:doing|using|adding|changing|touching|deleting|removing|"
       r"rewriting|creating|making|putting|writing|ignoring|guessing|assuming|inventing|hallucinating|pretending|"
       r"apologi[sz]ing|repeating|overthinking|overengineering|second-guessing|breaking|skipping)\b"),
    _p(_COR, "guessing", r"\b(?:before|instead of|no more|keep|keeps) guessing\b"),
    _p(_COR, "i asked", r"(?<!what )(?<!as )\bi asked (?:you )?(?:for|to)\b"),
    _p(_COR, "again", r"\b(?:don't|never) (?:ever )?do (?:that|this) again\b"),
    # an imperative correction: the verb's object is the agent's work, not a feature ("an undo button") or a
    # question about a tool ("how do I undo this in git")
    _p(_COR, "revert|undo|roll back|rollback|back out|restore",
       r"(?<!how to )(?<!how do i )(?<!how can i )(?<!how do you )\b(?:revert|undo|roll ?back|back out)\s+(?:that|"
       r"this|it|those|these|them|all|everything|what you|your|the (?:last|previous|latest|recent)\b|the (?:change|"
       r"edit|commit|refactor|rename|modification)s?\b)|\brestore (?:what you (?:deleted|removed|changed)|the (?:old|"
       r"original|previous) (?:version|code|behaviou?r))\b"),
    _p(_COR, " back|the way|how it|how they|as it|as they",
       r"\b(?:put|change|set) (?:it|that|them) back\b|\b(?:leave|put|make|keep|set|change) (?:it|that|them|this|"
       r"everything) (?:back )?(?:the way|how|as) (?:it|they) (?:was|were|used to be)\b|\b(?:change|put|set|switch|"
       r"turn|go) (?:it |that |them |this )?back to (?:the )?(?:old|original|previous|earlier|way)\b"),
    _p(_COR, "actually", r"^\s*actually,? (?:no|that's|it's|you|i (?:meant|said|want))\b"),
    _p(_COR, "i didn't|i did not|i never",
       r"\bi (?:didn't|did not|never) (?:ask|asked|tell|told|want|wanted|say|said) (?:you )?(?:to|for)\b"),
    _p(_COR, "the wrong|i didn't", r"\byou (?:changed|deleted|removed|added|modified|touched|edited|renamed) "
       r"(?:the wrong|something i didn't|files? i didn't)"),
    _p(_REC, "again", _YOU_AGAIN + r"|\bagain,? you\b", standalone=True),
    _p(_REC, "you keep", r"\byou keep (?:on )?\w+ing\b", standalone=True),
    _p(_REC, "same ", r"\bsame (?:mistake|error|bug|problem|issue|thing) (?:again|as before|every time)\b|"
       r"\bsame mistake\b", standalone=True),
    _p(_REC, " time", r"\b(?:for|this is|that's|it's|that is|it is) the (?:second|third|fourth|fifth|nth|umpteenth|"
       r"hundredth|\d+(?:st|nd|rd|th)) time\b", standalone=True),
    _p(_REC, "same ", r"\bsame (?:bug|error|problem|issue) (?:we|you|i) (?:already |just )?(?:fixed|had|saw|solved)\b|"
       r"\bsame (?:mistake|error|bug|problem|issue|failure|crash|traceback) as (?:yesterday|last time|earlier|this "
       r"morning|last week|the last (?:one|time))\b"),
    _p(_REC, "again with", r"^\s*again with\b|\bagain with (?:the|this|these|those|your)\b"),
    _p(_REC, "still", r"\bstill\s+(?:not|doesn't|does not|isn't|is not|won't|can't|fails?|failing|broken|wrong|"
       r"the same|happening|getting|seeing|crash\w*|error\w*|red|there)\b"),
    _p(_REC, "again", r"\b(?:fail(?:s|ed)|broke|crash(?:es|ed)|(?:is|are|was|were) (?:\w+ )?(?:wrong|broken|failing|"
       r"missing|crashing)|went wrong)\b[^.?!\n]{0,20}\bagain\b|\bagain\b[^.?!\n]{0,10}\b(?:wrong|broken|failing|"
       r"failed)\b|\b(?:yet|once) again\b|\bnot again\b|\bhere we go again\b"),
    _p(_REC, "every", r"\bevery (?:single )?time\b[^.?!\n]{0,40}\b" + _BAD + r"\b"),
    _p(_RES, "i already|i just|i literally|i clearly|i explicitly|i specifically|i said",
       r"\bi (?:already|just|literally|clearly|explicitly|specifically)\s+(?:told|said|asked|mentioned|explained|"
       r"gave|wrote|showed|pointed out|specified|stated)\b|\bi said (?:no|not|never|don't|do not)\b", standalone=True),
    _p(_RES, "i've|i have", r"\bi(?:'ve| have) (?:already |just )?(?:told|said|explained|mentioned)\b",
       standalone=True),
    _p(_RES, "i told you|i asked you|as i |i said|did i not|didn't i",
       r"\bi (?:told|asked) you\b|\bas i (?:said|mentioned|explained|wrote|stated|told you)\b|\bi said (?:this|that|"
       r"it) (?:before|earlier|already|twice)\b|\b(?:did i not|didn't i) (?:say|tell you|ask)\b", standalone=True),
    _p(_RES, "how many", r"\bhow many (?:more )?times (?:do|must|should|have|did|will) i\b", standalone=True),
    _p(_RES, "discussed|covered|went over|talked about|remember",
       r"\b(?:i|we) (?:already )?(?:discussed|covered|went over|talked about) (?:this|that)\b|"
       r"\bdon't you remember\b", standalone=True),
    _p(_RES, "forget|forgotten|not read|not see", r"\b(?:did|have) you (?:already )?(?:forget|forgotten|not read|"
       r"not see)\b"),
    _p(_RES, " up| above|message", r"\b(?:see|read|scroll) (?:up|above|my (?:previous|last|earlier) message)\b"),
    _p(_RHE, "why|how come", r"\b(?:why(?:'d| (?:on earth |the hell |the heck |exactly )?(?:did|would|didn't|did not|"
       r"are|were|have|haven't|won't|wouldn't|do|don't|can't|couldn't))|how come) you\b(?!\s+(?:think|recommend|"
       r"suggest|prefer|like|say so))"),
    # a question about what changed: "why is there a sleep in the test now?"
    _p(_RHE, "why", r"\bwhy (?:is|are|does|do|did) (?:there|it|this|that|everything|the \w+|my \w+)\b[^.?!\n]{0,40}"
       r"\b(?:now|suddenly|all of a sudden|everywhere)\b"),
    _p(_RHE, "did you even|still", r"\bdid you even\b|\bwhy (?:is|are|does|do) (?:there|it|this|that|they) still\b"),
    _p(_RHE, "you to|you could|you thinking",
       r"\b(?:who|what) (?:told|asked|allowed) you to\b|\bwho said you could\b|\bwhat were you thinking\b"),
    _p(_RHE, "how", r"\bhow (?:could|did|can) you (?:possibly |even |still |just )?(?:miss|forget|break|not|delete|"
       r"remove|ignore|overlook|skip)\b|\bhow is (?:this|that|it) (?:still )?(?:unknown|not known|new to you|"
       r"not fixed)"),
    _p(_EXP, "should|could|ought", r"\byou (?:should|could|ought to)(?:'ve| have| of)\b|\byou (?:shouldn't|should not)"
       r"(?:'ve| have)\b"),
    _p(_EXP, "supposed|meant|told|asked|i expected",
       r"\byou (?:were|was) (?:supposed|meant|told|asked) (?:not )?to\b|\bi expected (?:you|it|this) to\b"),
    _p(_EXP, "first", r"\b(?:didn't|did not) you (?:\w+ ){0,3}first\b"),
    _p(_EXP, "without", r"\byou\b[^.?!\n]{0,60}\bwithout (?:asking|telling me|checking|testing|running|reading|"
       r"looking)\b"),
    _p(_EXP, "you didn't|you did not|you never", r"\byou (?:didn't|did not|never) (?:even )?(?:run|test|check|read|"
       r"look at|ask|verify|try|compile|execute|open)\b"),
    _p(_EXP, "instead|the right|the correct|the proper", r"\binstead,? you\b|\bthe (?:right|correct|proper) "
       r"(?:way|approach|fix) (?:is|was|would (?:be|have been)) to\b"),
    # -- cues that are dissatisfaction next to an act of the agent (see ``ACT``), ordinary words without one --
    # what the agent said or used does not exist: "that flag is made up", "there is no such option"
    cue(_NEG, "made up|invented|fabricated|hallucinated|imaginary|fictional|nonexistent|non-existent|no such|exist|"
        "there's no|there is no|there are no|a real",
        r"\b(?:made up|invented|fabricated|hallucinated|imaginary|fictional|non-?existent)\b(?! (?:of|by|for|in|to)\b)|"
        r"\bno such\b|(?<!when )(?<!where )(?<!if )(?<!unless )\b(?:(?:that|this|it|which|they|those|these)(?: \w+)?|"
        r"the \w+ you \w+) (?:doesn't|does not|don't|do not|never) exist(?:s|ed)?\b(?! yet)|"
        r"\bthere(?:'s| is| are) no (?:\S+ ){1,2}?(?:flag|option|function|method|module|api|parameter|argument|"
        r"endpoint|command|class|setting|attribute|keyword|package|library|version|field|property|hook|variable)s?\b|"
        r"\b(?:isn't|is not|not) a real\b", ACT),
    # the work does nothing: "it tests nothing", "passes even when ...", "nothing works"
    cue(_NEG, "nothing|pass",
        r"\b(?:tests?|checks?|asserts?|verif(?:y|ies)|covers?|does|did|changed|changes|achieves?|catch(?:es)?|"
        r"proves?|accomplish(?:es|ed)?) (?:absolutely |literally |exactly )?nothing\b(?! (?:wrong|else|more)\b)|"
        r"\bnothing (?!(?:fails|breaks|crashes|errors|regresses|leaks|hangs|complains|warns|explodes)\b)"
        r"(?:\w+s|worked|changed|happened|shows up)\b(?! (?:else|more)\b)|"
        r"\b(?:always|even) pass(?:es|ed)\b|\bpass(?:es|ed)? (?:even|anyway|regardless|no matter)\b", ACT),
    # disbelief: "Seriously?", "are you kidding me?"
    cue(_NEG, "seriously|kidding|serious|joking|what the",
        r"(?:^|[.!?,;:] ?)(?:seriously|are you (?:kidding|serious|joking)(?: me)?|what the (?:hell|heck|fuck))\s*[?!]",
        ACT),
    # a failure after the act: "now the build fails", "now it takes forever", "mypy now reports 50 errors"
    cue(_NEG, "now|since then|and then|after that|afterwards",
        r"\b(?:now|since then|and then|after that|afterwards)\b,? (?:(?!make|ensure|let|have|should|must|want|need|"
        r"can|could|to\b|if\b|when|please|nothing\b|no\b|none\b|never\b|zero\b|0\b)\w+ ){0,5}?"
        r"(?:fail|fails|failing|failed|break|breaks|broke|broken|crash\w*|"
        r"errors? out|throws|raises|hangs|(?:is|are) (?:red|broken|failing)|no longer|(?:can't|cannot|couldn't) \w+|"
        r"(?:doesn't|won't) (?:even )?(?:work|build|compile|start|run|load|import|find|connect|pass)|takes? (?:forever|"
        r"ages|minutes)|(?:much |way |\w+ times |\d+x )?slower)\b", ACT),
    cue(_NEG, "errors|failures|failing tests|warnings",
        r"\b(?:now|get|got|see|saw|shows?|showed|reports?|reported|gives?|gave|throws?|threw|raises?|produces?|"
        r"produced|there are|with|has|have)\b[^.?!]{0,20}?\b" + _COUNT + r" (?:of )?(?:new )?(?:\w+ )?(?:errors|"
        r"failures|failing tests|warnings)\b(?! (?:left|remaining|to go)\b)", ACT),
    # the act went beyond what was asked: "I only wanted the one in main", "nobody asked you to"
    cue(_COR, "only|just|simply|all i|asked",
        r"\bi (?:only|just|simply) (?:wanted|asked(?: you)?(?: for)?|needed|meant|said|requested)\b(?! to (?:say|let|"
        r"check|ask|confirm|thank|mention|know|see if|make sure|clarify)\b)|\ball i (?:wanted|asked for|asked you|"
        r"needed|said)\b|\bi (?:wanted|asked for|needed) only\b|\b(?:nobody|no one) asked (?:you|for)\b", ACT),
    # what the act took away, wanted back: "add them back", "bring the logging back"
    cue(_COR, " back", r"\b(?:put|add|bring|move|change|turn|switch|set|restore)\b (?:\S+ ){0,4}?back\b"
        r"(?! (?:to (?:me|you)|up|end|pressure)\b)(?! (?:on |off )?(?:after|when|once|later|tomorrow|next|until)\b)"
        r"(?! (?:to|on|off) (?:\S+ ){0,2}?(?:before|by|after|when|once|until)\b)", ACT),
    # the failure the act was to remove is back: "the same error comes back", "the crash reappeared"
    cue(_REC, "back|reappear|resurfac|again|same",
        r"\b(?:comes?|came|keeps? coming) back\b|\b(?:is|are) back\b(?! (?:to|online|up|in|on track|and running)\b)|"
        r"\breappear(?:s|ed)?\b|\bresurfac(?:es|ed)\b|\bshows? up again\b|\bsame (?:\S+ )?(?:error|bug|failure|"
        r"crash|exception|traceback)s?\b(?! (?:handling|format|message|type|class|code|style|page|handler)\b)"
        r"(?![^.?!]{0,30}\b(?:too|also|elsewhere|exists?|other)\b)", ACT),
    # the act hid a failure or undid the user's work: "swallowed the exception", "removed the hints I wrote"
    cue(_NEG, "hid|mask|swallow|silenc|suppress|mute|papered|covered up|moved|deleted|removed|dropped|wiped|overwr|"
        "erased|reverted|undid|discarded|threw away|rewr|reformatted|renamed|touched|took",
        r"\b(?:hid|hides|hidden|masked|masks|swallowed|swallows|silenced|silences|suppressed|suppresses|muted|papered "
        r"over|covered up|(?:only|just|merely) moved) (?:the |that |this |every |all (?:the )?)?(?:\w+ )?(?:bug|error|"
        r"problem|issue|warning|symptom|failure|exception)s?\b(?! (?:handling|handler|message|code)\b)|"
        r"\b(?:deleted|removed|dropped|wiped|overwrote|overwritten|erased|reverted|undid|discarded|threw away|rewrote|"
        r"rewritten|reformatted|renamed|touched|took) (?:\w+ ){0,4}?(?:my (?:own )?\w+|(?:that |which )?i (?:wrote|"
        r"added|made|had|put))\b", ACT),
    # a verdict as a noun, what was never wired, an unreliable result
    cue(_NEG, "hole|regression|vulnerab|disaster|backward|footgun|security|implemented|defined|exported|wired|"
        "registered|called|half the time|every other|intermittent",
        r"\b(?:that|this|it)(?:'s| is| was) (?:a |an )?(?:\w+ )?(?:hole|regression|vulnerability|disaster|step "
        r"backwards?|footgun|security (?:risk|issue|problem))\b|\b(?:isn't|is not|wasn't|was not|never (?:got|gets|"
        r"is|was)) (?:actually )?(?:implemented|defined|exported|wired up|registered|called)\b(?! yet)|"
        r"\b(?:half the time|every other (?:time|run)|intermittently)\b", ACT),
    # a claim or an act, then the failure still there: "you said it was fixed, but it still 500s"
    cue(_REC, "still", r"\b(?:but|yet|however)\b,? (?:\w+ ){0,4}?still\b(?! (?:needs?|has to|have to|must|should|"
        r"wants?|requires?|looks?|works?|passes|pass)\b)", ACT),
    # the act set against what it should have been: "disabled the test instead of fixing it"
    cue(_COR, "instead of", r"\binstead of (?!(?:no|some|any|every)thing\b)(?:\w+ )?\w+ing\b", ACT),
    # a bare "Why?" after the act
    cue(_RHE, "why", r"(?:^|[.!;,:] )(?:but |so |and )?why(?: though| on earth| exactly| the hell)?\s*\?", ACT),
    # a regression: "doesn't build anymore", "it was linear before", "used to pass"
    cue(_NEG, "anymore|before|used to",
        r"\b(?:doesn't|don't|won't|can't|cannot|isn't|aren't) (?:even )?(?:work|build|compile|run|start|load|pass|open|"
        r"import|connect|render|respond)(?:s|ing)?\b[^.?!]{0,30}\banymore\b|"
        r"\b(?:was|were) (?:\w+ ){0,2}?(?:fine|working|linear|fast|faster|green|passing|ok|okay|correct|"
        r"right|better|readable) before\b|\bused to (?:work|pass|run|build|compile|be (?:fast|fine|green|readable))\b",
        ACT),
    # the state the act left: "the logs are flooded", "the config is out of sync", "the table got truncated"
    cue(_NEG, "flooded|spammed|unreadable|unusable|out of sync|corrupt|wiped|truncated|emptied|purged|erased|dropped|"
        "deleted|destroyed|overwr|clobbered|supposed|banned|forbidden|allowed|prohibited|allow|permit|accept",
        r"\b(?:is|are|was|were|got|get|gets|now|all|completely|totally) (?:\w+ )?(?:flooded|spammed|unreadable|"
        r"unusable|out of sync|corrupt(?:ed)?)\b|\b(?:wiped|truncated|emptied|purged|erased|dropped|deleted|destroyed|"
        r"overwrote|overwritten|clobbered) (?:\w+ ){0,3}?(?:tables?|database|db|data|records|rows|history|commits|work|"
        r"production|prod|source|original|backup)\b|\b(?:is|are) supposed to (?:check|test|verify|catch|cover|prevent|"
        r"guard|detect)\b|\b(?:is|are) (?:banned|"
        r"forbidden|not allowed|prohibited)\b|\bwe (?:don't|do not|never) (?:allow|permit|accept)\b", ACT),
    # what the act got the wrong way round or left out: "the axes are swapped", "every minute, not every hour",
    # "leaves out the breaking change"
    cue(_COR, "swapped|reversed|backwards|inverted|flipped|mixed up|wrong way|upside down|, not|left out|leaves out|"
        "omit|missing",
        r"\b(?:are|is|got|were|was|has|have) (?:\w+ ){0,2}?(?:swapped|reversed|backwards|inverted|flipped|mixed up|the "
        r"wrong way round|upside down)\b|, not (?!(?:your|you|my|mine|ours|theirs)\b)(?:a |an |the |every |each )?\w+"
        r"(?: \w+)?\s*(?:[.!]|$)|"
        r"\b(?:leaves?|left) out\b|\bomit(?:s|ted)\b|\b(?:is|are) (?:still )?missing\b", ACT),
    # a failure stated next to the act, in a clause that does not fix, test for, ask about or plan it: "so every
    # plugin broke", "the scan is all red", "the parser chokes on it", "memory keeps growing"
    cue(_NEG, "broke|fails|crash|chok|blew up|blows up|explode|panic|segfault|hangs| red|broken|failing| dead|"
        "stopped working|no longer works|keeps|leak|infinite loop|never|off by|ooms|can't|cannot|slow as",
        r"(?:^|[,;:.!?]|\b(?:so|and|but|now|then|which)\b)\s*(?:(?!(?:fix|solv|resolv|handl|prevent|avoid|catch|caught|"
        r"found|find|reproduc|debug|investigat|test|make|ensure|sure|should|must|would|will|might|could|may|can|to|if|"
        r"when|whether|unless|until|why|what|how|does|did|do|no|not|never|don't|doesn't|won't|isn't)\w*\b)[\w'-]+ )"
        r"{0,6}?(?:broke|fails|crash(?:es|ed)|chok(?:es|ed)|blew up|blows up|explod(?:es|ed)|panic(?:s|ked)|"
        r"segfault(?:s|ed)|hangs|ooms|(?:can't|cannot) (?:\w+ )?(?:sign|log|build|start|run|open|load|connect|deploy|"
        r"install|import|use|find|read|reach)|(?:as|just as) slow as (?:before|ever)|(?:is|are) (?:\w+ )?(?:red|"
        r"broken|failing|dead)|stopped working|no longer works|keeps "
        r"(?:growing|increasing|climbing|restarting|crashing|failing|timing out|looping|leaking)|leaks memory|"
        r"infinite loop|never (?:terminates|finishes|returns|expires|ends|stops)|(?:is |are )?off by (?:one|a|an|\d+))"
        r"\b", ACT),
    # the act denied its name: "that's not a fix", "this isn't a real solution"
    cue(_NEG, "s not |t not |isn't |wasn't ",
        r"\b(?:that|this|it)(?:'s| is|'s just| is just) not (?:a |an |the )?(?:real |proper |actual )?(?:fix|"
        r"solution|answer|refactor(?:ing)?|test|improvement)\b|\b(?:that|this|it) (?:isn't|wasn't) (?:a |an |"
        r"the )?(?:real |proper |actual )?(?:fix|solution|answer|refactor(?:ing)?|test|improvement)\b", ACT),
    # the failing tests silenced, and the work declared done: "marked the failing tests as xfail", "called it done"
    cue(_NEG, "failing|broken| red|called it",
        r"\b(?:skipped|disabled|xfail\w*|commented out|deleted|removed|muted|marked) (?:the |all (?:the )?|those |"
        r"these )?(?:failing|broken|red) tests?\b|\bcalled it (?:done|fixed|finished)\b", ACT),
    # the agent's claim contradicted: "You said it's thread-safe. It isn't."; what the act skipped: "that needed a
    # review"
    cue(_NEG, "isn't|is not|doesn't|does not|wasn't|didn't|aren't|won't|can't|needed|required",
        r"(?:^|[.!?;,] )(?:it|that|this|they) (?:isn't|is not|doesn't|does not|wasn't|"
        r"didn't|aren't|won't|can't)\s*[.,!;]|\b(?:that|this|it) (?:needed|required) (?:a |an )?(?:review|"
        r"approval|sign-off|discussion|tests?)\b", ACT),
    # what the act names that is not there: "parameters the function doesn't take"
    cue(_NEG, "n't take|n't have|n't accept|n't support|n't expose|n't define|not take|not have|not accept|not support|"
        "not expose|not define",
        r"\b(?:parameters?|arguments?|options?|flags?|fields?|methods?|attributes?|keys?) (?:that )?(?:the|it|this) "
        r"\w+ (?:doesn't|does not|don't|do not) (?:take|have|accept|support|expose|define)\b", ACT),
)
