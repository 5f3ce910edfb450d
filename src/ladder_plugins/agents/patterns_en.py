"""The English phrase families of the prompt classifier, by reason code (see ``classify`` for what each code
means and how the families are run).

May import: ``patterns`` only. Must not import: ``classify`` (it imports this) or anything that reads files: the
table is loaded on the prompt path.
"""

from __future__ import annotations

from .patterns import REASONS
from .patterns import family as _p

__all__ = ["ENGLISH"]

_NEG, _COR, _REC, _RES, _RHE, _EXP = REASONS
#: "you <past or -ing verb> ... again" but not a request ("can you run it again", "thank you again")
_YOU_AGAIN = (r"(?<!can )(?<!could )(?<!would )(?<!will )(?<!please )(?<!thank )\byou(?:'ve| have|'re| are)?\s+"
              r"(?:\w+ed|did|made|broke|broken|forgot|forgotten|wrote|written|put|left|lost|took|ran|doing|"
              r"messed|screwed)\b[^.?!\n]{0,40}?\bagain\b")
_BAD = r"(?:wrong|broken|fail\w*|error\w*|crash\w*|missing|ignored?|forgot\w*)"
_SUBJECT = r"\b(?:that|this|it|everything|your (?:\w+ )?(?:code|fix|change|patch|answer|version|solution))(?: \w+)?"
_VERDICT = ("wrong|incorrect|broken|terrible|awful|horrible|useless|garbage|nonsense|sloppy|a mess|worse|"
            "overengineered|over-engineered|overcomplicated|over-complicated|overkill|convoluted|bloated")

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
    _p(_COR, "i asked", r"\bi asked (?:you )?(?:for|to)\b"),
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
)
