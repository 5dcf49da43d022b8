from .base import Ruleset
class UnoRules(Ruleset): pass
class NoMercyRules(UnoRules): pass
class EnaRules(UnoRules): pass
