# Generated from CEL.g4 by ANTLR 4.13.2
# encoding: utf-8
from antlr4 import *
from io import StringIO
import sys
if sys.version_info[1] > 5:
	from typing import TextIO
else:
	from typing.io import TextIO

def serializedATN():
    return [
        4,1,36,251,2,0,7,0,2,1,7,1,2,2,7,2,2,3,7,3,2,4,7,4,2,5,7,5,2,6,7,
        6,2,7,7,7,2,8,7,8,2,9,7,9,2,10,7,10,2,11,7,11,2,12,7,12,2,13,7,13,
        2,14,7,14,2,15,7,15,1,0,1,0,1,0,1,1,1,1,1,1,1,1,1,1,1,1,3,1,42,8,
        1,1,2,1,2,1,2,5,2,47,8,2,10,2,12,2,50,9,2,1,3,1,3,1,3,5,3,55,8,3,
        10,3,12,3,58,9,3,1,4,1,4,1,4,1,4,1,4,1,4,5,4,66,8,4,10,4,12,4,69,
        9,4,1,5,1,5,1,5,1,5,1,5,1,5,1,5,1,5,1,5,5,5,80,8,5,10,5,12,5,83,
        9,5,1,6,1,6,4,6,87,8,6,11,6,12,6,88,1,6,1,6,4,6,93,8,6,11,6,12,6,
        94,1,6,3,6,98,8,6,1,7,1,7,1,7,1,7,1,7,1,7,3,7,106,8,7,1,7,1,7,1,
        7,1,7,1,7,1,7,3,7,114,8,7,1,7,1,7,1,7,1,7,3,7,120,8,7,1,7,1,7,1,
        7,5,7,125,8,7,10,7,12,7,128,9,7,1,8,3,8,131,8,8,1,8,1,8,1,8,3,8,
        136,8,8,1,8,3,8,139,8,8,1,8,1,8,1,8,1,8,1,8,1,8,3,8,147,8,8,1,8,
        3,8,150,8,8,1,8,1,8,1,8,3,8,155,8,8,1,8,3,8,158,8,8,1,8,1,8,3,8,
        162,8,8,1,8,1,8,1,8,5,8,167,8,8,10,8,12,8,170,9,8,1,8,1,8,3,8,174,
        8,8,1,8,3,8,177,8,8,1,8,1,8,3,8,181,8,8,1,9,1,9,1,9,5,9,186,8,9,
        10,9,12,9,189,9,9,1,10,1,10,1,10,5,10,194,8,10,10,10,12,10,197,9,
        10,1,11,1,11,1,11,1,11,1,11,1,11,1,11,1,11,5,11,207,8,11,10,11,12,
        11,210,9,11,1,12,3,12,213,8,12,1,12,1,12,1,13,1,13,1,13,1,13,1,13,
        1,13,1,13,1,13,5,13,225,8,13,10,13,12,13,228,9,13,1,14,3,14,231,
        8,14,1,14,1,14,1,15,3,15,236,8,15,1,15,1,15,1,15,3,15,241,8,15,1,
        15,1,15,1,15,1,15,1,15,1,15,3,15,249,8,15,1,15,0,3,8,10,14,16,0,
        2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,0,3,1,0,1,7,1,0,23,25,2,
        0,18,18,22,22,281,0,32,1,0,0,0,2,35,1,0,0,0,4,43,1,0,0,0,6,51,1,
        0,0,0,8,59,1,0,0,0,10,70,1,0,0,0,12,97,1,0,0,0,14,99,1,0,0,0,16,
        180,1,0,0,0,18,182,1,0,0,0,20,190,1,0,0,0,22,198,1,0,0,0,24,212,
        1,0,0,0,26,216,1,0,0,0,28,230,1,0,0,0,30,248,1,0,0,0,32,33,3,2,1,
        0,33,34,5,0,0,1,34,1,1,0,0,0,35,41,3,4,2,0,36,37,5,20,0,0,37,38,
        3,4,2,0,38,39,5,21,0,0,39,40,3,2,1,0,40,42,1,0,0,0,41,36,1,0,0,0,
        41,42,1,0,0,0,42,3,1,0,0,0,43,48,3,6,3,0,44,45,5,9,0,0,45,47,3,6,
        3,0,46,44,1,0,0,0,47,50,1,0,0,0,48,46,1,0,0,0,48,49,1,0,0,0,49,5,
        1,0,0,0,50,48,1,0,0,0,51,56,3,8,4,0,52,53,5,8,0,0,53,55,3,8,4,0,
        54,52,1,0,0,0,55,58,1,0,0,0,56,54,1,0,0,0,56,57,1,0,0,0,57,7,1,0,
        0,0,58,56,1,0,0,0,59,60,6,4,-1,0,60,61,3,10,5,0,61,67,1,0,0,0,62,
        63,10,1,0,0,63,64,7,0,0,0,64,66,3,8,4,2,65,62,1,0,0,0,66,69,1,0,
        0,0,67,65,1,0,0,0,67,68,1,0,0,0,68,9,1,0,0,0,69,67,1,0,0,0,70,71,
        6,5,-1,0,71,72,3,12,6,0,72,81,1,0,0,0,73,74,10,2,0,0,74,75,7,1,0,
        0,75,80,3,10,5,3,76,77,10,1,0,0,77,78,7,2,0,0,78,80,3,10,5,2,79,
        73,1,0,0,0,79,76,1,0,0,0,80,83,1,0,0,0,81,79,1,0,0,0,81,82,1,0,0,
        0,82,11,1,0,0,0,83,81,1,0,0,0,84,98,3,14,7,0,85,87,5,19,0,0,86,85,
        1,0,0,0,87,88,1,0,0,0,88,86,1,0,0,0,88,89,1,0,0,0,89,90,1,0,0,0,
        90,98,3,14,7,0,91,93,5,18,0,0,92,91,1,0,0,0,93,94,1,0,0,0,94,92,
        1,0,0,0,94,95,1,0,0,0,95,96,1,0,0,0,96,98,3,14,7,0,97,84,1,0,0,0,
        97,86,1,0,0,0,97,92,1,0,0,0,98,13,1,0,0,0,99,100,6,7,-1,0,100,101,
        3,16,8,0,101,126,1,0,0,0,102,103,10,3,0,0,103,105,5,16,0,0,104,106,
        5,20,0,0,105,104,1,0,0,0,105,106,1,0,0,0,106,107,1,0,0,0,107,125,
        5,36,0,0,108,109,10,2,0,0,109,110,5,16,0,0,110,111,5,36,0,0,111,
        113,5,14,0,0,112,114,3,18,9,0,113,112,1,0,0,0,113,114,1,0,0,0,114,
        115,1,0,0,0,115,125,5,15,0,0,116,117,10,1,0,0,117,119,5,10,0,0,118,
        120,5,20,0,0,119,118,1,0,0,0,119,120,1,0,0,0,120,121,1,0,0,0,121,
        122,3,2,1,0,122,123,5,11,0,0,123,125,1,0,0,0,124,102,1,0,0,0,124,
        108,1,0,0,0,124,116,1,0,0,0,125,128,1,0,0,0,126,124,1,0,0,0,126,
        127,1,0,0,0,127,15,1,0,0,0,128,126,1,0,0,0,129,131,5,16,0,0,130,
        129,1,0,0,0,130,131,1,0,0,0,131,132,1,0,0,0,132,138,5,36,0,0,133,
        135,5,14,0,0,134,136,3,18,9,0,135,134,1,0,0,0,135,136,1,0,0,0,136,
        137,1,0,0,0,137,139,5,15,0,0,138,133,1,0,0,0,138,139,1,0,0,0,139,
        181,1,0,0,0,140,141,5,14,0,0,141,142,3,2,1,0,142,143,5,15,0,0,143,
        181,1,0,0,0,144,146,5,10,0,0,145,147,3,20,10,0,146,145,1,0,0,0,146,
        147,1,0,0,0,147,149,1,0,0,0,148,150,5,17,0,0,149,148,1,0,0,0,149,
        150,1,0,0,0,150,151,1,0,0,0,151,181,5,11,0,0,152,154,5,12,0,0,153,
        155,3,26,13,0,154,153,1,0,0,0,154,155,1,0,0,0,155,157,1,0,0,0,156,
        158,5,17,0,0,157,156,1,0,0,0,157,158,1,0,0,0,158,159,1,0,0,0,159,
        181,5,13,0,0,160,162,5,16,0,0,161,160,1,0,0,0,161,162,1,0,0,0,162,
        163,1,0,0,0,163,168,5,36,0,0,164,165,5,16,0,0,165,167,5,36,0,0,166,
        164,1,0,0,0,167,170,1,0,0,0,168,166,1,0,0,0,168,169,1,0,0,0,169,
        171,1,0,0,0,170,168,1,0,0,0,171,173,5,12,0,0,172,174,3,22,11,0,173,
        172,1,0,0,0,173,174,1,0,0,0,174,176,1,0,0,0,175,177,5,17,0,0,176,
        175,1,0,0,0,176,177,1,0,0,0,177,178,1,0,0,0,178,181,5,13,0,0,179,
        181,3,30,15,0,180,130,1,0,0,0,180,140,1,0,0,0,180,144,1,0,0,0,180,
        152,1,0,0,0,180,161,1,0,0,0,180,179,1,0,0,0,181,17,1,0,0,0,182,187,
        3,2,1,0,183,184,5,17,0,0,184,186,3,2,1,0,185,183,1,0,0,0,186,189,
        1,0,0,0,187,185,1,0,0,0,187,188,1,0,0,0,188,19,1,0,0,0,189,187,1,
        0,0,0,190,195,3,28,14,0,191,192,5,17,0,0,192,194,3,28,14,0,193,191,
        1,0,0,0,194,197,1,0,0,0,195,193,1,0,0,0,195,196,1,0,0,0,196,21,1,
        0,0,0,197,195,1,0,0,0,198,199,3,24,12,0,199,200,5,21,0,0,200,208,
        3,2,1,0,201,202,5,17,0,0,202,203,3,24,12,0,203,204,5,21,0,0,204,
        205,3,2,1,0,205,207,1,0,0,0,206,201,1,0,0,0,207,210,1,0,0,0,208,
        206,1,0,0,0,208,209,1,0,0,0,209,23,1,0,0,0,210,208,1,0,0,0,211,213,
        5,20,0,0,212,211,1,0,0,0,212,213,1,0,0,0,213,214,1,0,0,0,214,215,
        5,36,0,0,215,25,1,0,0,0,216,217,3,28,14,0,217,218,5,21,0,0,218,226,
        3,2,1,0,219,220,5,17,0,0,220,221,3,28,14,0,221,222,5,21,0,0,222,
        223,3,2,1,0,223,225,1,0,0,0,224,219,1,0,0,0,225,228,1,0,0,0,226,
        224,1,0,0,0,226,227,1,0,0,0,227,27,1,0,0,0,228,226,1,0,0,0,229,231,
        5,20,0,0,230,229,1,0,0,0,230,231,1,0,0,0,231,232,1,0,0,0,232,233,
        3,2,1,0,233,29,1,0,0,0,234,236,5,18,0,0,235,234,1,0,0,0,235,236,
        1,0,0,0,236,237,1,0,0,0,237,249,5,32,0,0,238,249,5,33,0,0,239,241,
        5,18,0,0,240,239,1,0,0,0,240,241,1,0,0,0,241,242,1,0,0,0,242,249,
        5,31,0,0,243,249,5,34,0,0,244,249,5,35,0,0,245,249,5,26,0,0,246,
        249,5,27,0,0,247,249,5,28,0,0,248,235,1,0,0,0,248,238,1,0,0,0,248,
        240,1,0,0,0,248,243,1,0,0,0,248,244,1,0,0,0,248,245,1,0,0,0,248,
        246,1,0,0,0,248,247,1,0,0,0,249,31,1,0,0,0,35,41,48,56,67,79,81,
        88,94,97,105,113,119,124,126,130,135,138,146,149,154,157,161,168,
        173,176,180,187,195,208,212,226,230,235,240,248
    ]

class CELParser ( Parser ):

    grammarFileName = "CEL.g4"

    atn = ATNDeserializer().deserialize(serializedATN())

    decisionsToDFA = [ DFA(ds, i) for i, ds in enumerate(atn.decisionToState) ]

    sharedContextCache = PredictionContextCache()

    literalNames = [ "<INVALID>", "'=='", "'!='", "'in'", "'<'", "'<='", 
                     "'>='", "'>'", "'&&'", "'||'", "'['", "']'", "'{'", 
                     "'}'", "'('", "')'", "'.'", "','", "'-'", "'!'", "'?'", 
                     "':'", "'+'", "'*'", "'/'", "'%'", "'true'", "'false'", 
                     "'null'" ]

    symbolicNames = [ "<INVALID>", "EQUALS", "NOT_EQUALS", "IN", "LESS", 
                      "LESS_EQUALS", "GREATER_EQUALS", "GREATER", "LOGICAL_AND", 
                      "LOGICAL_OR", "LBRACKET", "RPRACKET", "LBRACE", "RBRACE", 
                      "LPAREN", "RPAREN", "DOT", "COMMA", "MINUS", "EXCLAM", 
                      "QUESTIONMARK", "COLON", "PLUS", "STAR", "SLASH", 
                      "PERCENT", "CEL_TRUE", "CEL_FALSE", "NUL", "WHITESPACE", 
                      "COMMENT", "NUM_FLOAT", "NUM_INT", "NUM_UINT", "STRING", 
                      "BYTES", "IDENTIFIER" ]

    RULE_start = 0
    RULE_expr = 1
    RULE_conditionalOr = 2
    RULE_conditionalAnd = 3
    RULE_relation = 4
    RULE_calc = 5
    RULE_unary = 6
    RULE_member = 7
    RULE_primary = 8
    RULE_exprList = 9
    RULE_listInit = 10
    RULE_fieldInitializerList = 11
    RULE_optField = 12
    RULE_mapInitializerList = 13
    RULE_optExpr = 14
    RULE_literal = 15

    ruleNames =  [ "start", "expr", "conditionalOr", "conditionalAnd", "relation", 
                   "calc", "unary", "member", "primary", "exprList", "listInit", 
                   "fieldInitializerList", "optField", "mapInitializerList", 
                   "optExpr", "literal" ]

    EOF = Token.EOF
    EQUALS=1
    NOT_EQUALS=2
    IN=3
    LESS=4
    LESS_EQUALS=5
    GREATER_EQUALS=6
    GREATER=7
    LOGICAL_AND=8
    LOGICAL_OR=9
    LBRACKET=10
    RPRACKET=11
    LBRACE=12
    RBRACE=13
    LPAREN=14
    RPAREN=15
    DOT=16
    COMMA=17
    MINUS=18
    EXCLAM=19
    QUESTIONMARK=20
    COLON=21
    PLUS=22
    STAR=23
    SLASH=24
    PERCENT=25
    CEL_TRUE=26
    CEL_FALSE=27
    NUL=28
    WHITESPACE=29
    COMMENT=30
    NUM_FLOAT=31
    NUM_INT=32
    NUM_UINT=33
    STRING=34
    BYTES=35
    IDENTIFIER=36

    def __init__(self, input:TokenStream, output:TextIO = sys.stdout):
        super().__init__(input, output)
        self.checkVersion("4.13.2")
        self._interp = ParserATNSimulator(self, self.atn, self.decisionsToDFA, self.sharedContextCache)
        self._predicates = None




    class StartContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.e = None # ExprContext

        def EOF(self):
            return self.getToken(CELParser.EOF, 0)

        def expr(self):
            return self.getTypedRuleContext(CELParser.ExprContext,0)


        def getRuleIndex(self):
            return CELParser.RULE_start




    def start(self):

        localctx = CELParser.StartContext(self, self._ctx, self.state)
        self.enterRule(localctx, 0, self.RULE_start)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 32
            localctx.e = self.expr()
            self.state = 33
            self.match(CELParser.EOF)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.e = None # ConditionalOrContext
            self.op = None # Token
            self.e1 = None # ConditionalOrContext
            self.e2 = None # ExprContext

        def conditionalOr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.ConditionalOrContext)
            else:
                return self.getTypedRuleContext(CELParser.ConditionalOrContext,i)


        def COLON(self):
            return self.getToken(CELParser.COLON, 0)

        def QUESTIONMARK(self):
            return self.getToken(CELParser.QUESTIONMARK, 0)

        def expr(self):
            return self.getTypedRuleContext(CELParser.ExprContext,0)


        def getRuleIndex(self):
            return CELParser.RULE_expr




    def expr(self):

        localctx = CELParser.ExprContext(self, self._ctx, self.state)
        self.enterRule(localctx, 2, self.RULE_expr)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 35
            localctx.e = self.conditionalOr()
            self.state = 41
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==20:
                self.state = 36
                localctx.op = self.match(CELParser.QUESTIONMARK)
                self.state = 37
                localctx.e1 = self.conditionalOr()
                self.state = 38
                self.match(CELParser.COLON)
                self.state = 39
                localctx.e2 = self.expr()


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ConditionalOrContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.e = None # ConditionalAndContext
            self.s9 = None # Token
            self.ops = list() # of Tokens
            self._conditionalAnd = None # ConditionalAndContext
            self.e1 = list() # of ConditionalAndContexts

        def conditionalAnd(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.ConditionalAndContext)
            else:
                return self.getTypedRuleContext(CELParser.ConditionalAndContext,i)


        def LOGICAL_OR(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.LOGICAL_OR)
            else:
                return self.getToken(CELParser.LOGICAL_OR, i)

        def getRuleIndex(self):
            return CELParser.RULE_conditionalOr




    def conditionalOr(self):

        localctx = CELParser.ConditionalOrContext(self, self._ctx, self.state)
        self.enterRule(localctx, 4, self.RULE_conditionalOr)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 43
            localctx.e = self.conditionalAnd()
            self.state = 48
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==9:
                self.state = 44
                localctx.s9 = self.match(CELParser.LOGICAL_OR)
                localctx.ops.append(localctx.s9)
                self.state = 45
                localctx._conditionalAnd = self.conditionalAnd()
                localctx.e1.append(localctx._conditionalAnd)
                self.state = 50
                self._errHandler.sync(self)
                _la = self._input.LA(1)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ConditionalAndContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.e = None # RelationContext
            self.s8 = None # Token
            self.ops = list() # of Tokens
            self._relation = None # RelationContext
            self.e1 = list() # of RelationContexts

        def relation(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.RelationContext)
            else:
                return self.getTypedRuleContext(CELParser.RelationContext,i)


        def LOGICAL_AND(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.LOGICAL_AND)
            else:
                return self.getToken(CELParser.LOGICAL_AND, i)

        def getRuleIndex(self):
            return CELParser.RULE_conditionalAnd




    def conditionalAnd(self):

        localctx = CELParser.ConditionalAndContext(self, self._ctx, self.state)
        self.enterRule(localctx, 6, self.RULE_conditionalAnd)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 51
            localctx.e = self.relation(0)
            self.state = 56
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==8:
                self.state = 52
                localctx.s8 = self.match(CELParser.LOGICAL_AND)
                localctx.ops.append(localctx.s8)
                self.state = 53
                localctx._relation = self.relation(0)
                localctx.e1.append(localctx._relation)
                self.state = 58
                self._errHandler.sync(self)
                _la = self._input.LA(1)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class RelationContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.op = None # Token

        def calc(self):
            return self.getTypedRuleContext(CELParser.CalcContext,0)


        def relation(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.RelationContext)
            else:
                return self.getTypedRuleContext(CELParser.RelationContext,i)


        def LESS(self):
            return self.getToken(CELParser.LESS, 0)

        def LESS_EQUALS(self):
            return self.getToken(CELParser.LESS_EQUALS, 0)

        def GREATER_EQUALS(self):
            return self.getToken(CELParser.GREATER_EQUALS, 0)

        def GREATER(self):
            return self.getToken(CELParser.GREATER, 0)

        def EQUALS(self):
            return self.getToken(CELParser.EQUALS, 0)

        def NOT_EQUALS(self):
            return self.getToken(CELParser.NOT_EQUALS, 0)

        def IN(self):
            return self.getToken(CELParser.IN, 0)

        def getRuleIndex(self):
            return CELParser.RULE_relation



    def relation(self, _p:int=0):
        _parentctx = self._ctx
        _parentState = self.state
        localctx = CELParser.RelationContext(self, self._ctx, _parentState)
        _prevctx = localctx
        _startState = 8
        self.enterRecursionRule(localctx, 8, self.RULE_relation, _p)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 60
            self.calc(0)
            self._ctx.stop = self._input.LT(-1)
            self.state = 67
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,3,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    if self._parseListeners is not None:
                        self.triggerExitRuleEvent()
                    _prevctx = localctx
                    localctx = CELParser.RelationContext(self, _parentctx, _parentState)
                    self.pushNewRecursionContext(localctx, _startState, self.RULE_relation)
                    self.state = 62
                    if not self.precpred(self._ctx, 1):
                        from antlr4.error.Errors import FailedPredicateException
                        raise FailedPredicateException(self, "self.precpred(self._ctx, 1)")
                    self.state = 63
                    localctx.op = self._input.LT(1)
                    _la = self._input.LA(1)
                    if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 254) != 0)):
                        localctx.op = self._errHandler.recoverInline(self)
                    else:
                        self._errHandler.reportMatch(self)
                        self.consume()
                    self.state = 64
                    self.relation(2) 
                self.state = 69
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,3,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.unrollRecursionContexts(_parentctx)
        return localctx


    class CalcContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.op = None # Token

        def unary(self):
            return self.getTypedRuleContext(CELParser.UnaryContext,0)


        def calc(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.CalcContext)
            else:
                return self.getTypedRuleContext(CELParser.CalcContext,i)


        def STAR(self):
            return self.getToken(CELParser.STAR, 0)

        def SLASH(self):
            return self.getToken(CELParser.SLASH, 0)

        def PERCENT(self):
            return self.getToken(CELParser.PERCENT, 0)

        def PLUS(self):
            return self.getToken(CELParser.PLUS, 0)

        def MINUS(self):
            return self.getToken(CELParser.MINUS, 0)

        def getRuleIndex(self):
            return CELParser.RULE_calc



    def calc(self, _p:int=0):
        _parentctx = self._ctx
        _parentState = self.state
        localctx = CELParser.CalcContext(self, self._ctx, _parentState)
        _prevctx = localctx
        _startState = 10
        self.enterRecursionRule(localctx, 10, self.RULE_calc, _p)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 71
            self.unary()
            self._ctx.stop = self._input.LT(-1)
            self.state = 81
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,5,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    if self._parseListeners is not None:
                        self.triggerExitRuleEvent()
                    _prevctx = localctx
                    self.state = 79
                    self._errHandler.sync(self)
                    la_ = self._interp.adaptivePredict(self._input,4,self._ctx)
                    if la_ == 1:
                        localctx = CELParser.CalcContext(self, _parentctx, _parentState)
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_calc)
                        self.state = 73
                        if not self.precpred(self._ctx, 2):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 2)")
                        self.state = 74
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not((((_la) & ~0x3f) == 0 and ((1 << _la) & 58720256) != 0)):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 75
                        self.calc(3)
                        pass

                    elif la_ == 2:
                        localctx = CELParser.CalcContext(self, _parentctx, _parentState)
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_calc)
                        self.state = 76
                        if not self.precpred(self._ctx, 1):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 1)")
                        self.state = 77
                        localctx.op = self._input.LT(1)
                        _la = self._input.LA(1)
                        if not(_la==18 or _la==22):
                            localctx.op = self._errHandler.recoverInline(self)
                        else:
                            self._errHandler.reportMatch(self)
                            self.consume()
                        self.state = 78
                        self.calc(2)
                        pass

             
                self.state = 83
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,5,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.unrollRecursionContexts(_parentctx)
        return localctx


    class UnaryContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return CELParser.RULE_unary

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class LogicalNotContext(UnaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.UnaryContext
            super().__init__(parser)
            self.s19 = None # Token
            self.ops = list() # of Tokens
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)

        def EXCLAM(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.EXCLAM)
            else:
                return self.getToken(CELParser.EXCLAM, i)


    class MemberExprContext(UnaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.UnaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)



    class NegateContext(UnaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.UnaryContext
            super().__init__(parser)
            self.s18 = None # Token
            self.ops = list() # of Tokens
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)

        def MINUS(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.MINUS)
            else:
                return self.getToken(CELParser.MINUS, i)



    def unary(self):

        localctx = CELParser.UnaryContext(self, self._ctx, self.state)
        self.enterRule(localctx, 12, self.RULE_unary)
        self._la = 0 # Token type
        try:
            self.state = 97
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,8,self._ctx)
            if la_ == 1:
                localctx = CELParser.MemberExprContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 84
                self.member(0)
                pass

            elif la_ == 2:
                localctx = CELParser.LogicalNotContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 86 
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                while True:
                    self.state = 85
                    localctx.s19 = self.match(CELParser.EXCLAM)
                    localctx.ops.append(localctx.s19)
                    self.state = 88 
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if not (_la==19):
                        break

                self.state = 90
                self.member(0)
                pass

            elif la_ == 3:
                localctx = CELParser.NegateContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 92 
                self._errHandler.sync(self)
                _alt = 1
                while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                    if _alt == 1:
                        self.state = 91
                        localctx.s18 = self.match(CELParser.MINUS)
                        localctx.ops.append(localctx.s18)

                    else:
                        raise NoViableAltException(self)
                    self.state = 94 
                    self._errHandler.sync(self)
                    _alt = self._interp.adaptivePredict(self._input,7,self._ctx)

                self.state = 96
                self.member(0)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class MemberContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return CELParser.RULE_member

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)


    class MemberCallContext(MemberContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.MemberContext
            super().__init__(parser)
            self.op = None # Token
            self.id_ = None # Token
            self.open_ = None # Token
            self.args = None # ExprListContext
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)

        def RPAREN(self):
            return self.getToken(CELParser.RPAREN, 0)
        def DOT(self):
            return self.getToken(CELParser.DOT, 0)
        def IDENTIFIER(self):
            return self.getToken(CELParser.IDENTIFIER, 0)
        def LPAREN(self):
            return self.getToken(CELParser.LPAREN, 0)
        def exprList(self):
            return self.getTypedRuleContext(CELParser.ExprListContext,0)



    class SelectContext(MemberContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.MemberContext
            super().__init__(parser)
            self.op = None # Token
            self.opt = None # Token
            self.id_ = None # Token
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)

        def DOT(self):
            return self.getToken(CELParser.DOT, 0)
        def IDENTIFIER(self):
            return self.getToken(CELParser.IDENTIFIER, 0)
        def QUESTIONMARK(self):
            return self.getToken(CELParser.QUESTIONMARK, 0)


    class PrimaryExprContext(MemberContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.MemberContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def primary(self):
            return self.getTypedRuleContext(CELParser.PrimaryContext,0)



    class IndexContext(MemberContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.MemberContext
            super().__init__(parser)
            self.op = None # Token
            self.opt = None # Token
            self.index = None # ExprContext
            self.copyFrom(ctx)

        def member(self):
            return self.getTypedRuleContext(CELParser.MemberContext,0)

        def RPRACKET(self):
            return self.getToken(CELParser.RPRACKET, 0)
        def LBRACKET(self):
            return self.getToken(CELParser.LBRACKET, 0)
        def expr(self):
            return self.getTypedRuleContext(CELParser.ExprContext,0)

        def QUESTIONMARK(self):
            return self.getToken(CELParser.QUESTIONMARK, 0)



    def member(self, _p:int=0):
        _parentctx = self._ctx
        _parentState = self.state
        localctx = CELParser.MemberContext(self, self._ctx, _parentState)
        _prevctx = localctx
        _startState = 14
        self.enterRecursionRule(localctx, 14, self.RULE_member, _p)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            localctx = CELParser.PrimaryExprContext(self, localctx)
            self._ctx = localctx
            _prevctx = localctx

            self.state = 100
            self.primary()
            self._ctx.stop = self._input.LT(-1)
            self.state = 126
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,13,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    if self._parseListeners is not None:
                        self.triggerExitRuleEvent()
                    _prevctx = localctx
                    self.state = 124
                    self._errHandler.sync(self)
                    la_ = self._interp.adaptivePredict(self._input,12,self._ctx)
                    if la_ == 1:
                        localctx = CELParser.SelectContext(self, CELParser.MemberContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_member)
                        self.state = 102
                        if not self.precpred(self._ctx, 3):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 3)")
                        self.state = 103
                        localctx.op = self.match(CELParser.DOT)
                        self.state = 105
                        self._errHandler.sync(self)
                        _la = self._input.LA(1)
                        if _la==20:
                            self.state = 104
                            localctx.opt = self.match(CELParser.QUESTIONMARK)


                        self.state = 107
                        localctx.id_ = self.match(CELParser.IDENTIFIER)
                        pass

                    elif la_ == 2:
                        localctx = CELParser.MemberCallContext(self, CELParser.MemberContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_member)
                        self.state = 108
                        if not self.precpred(self._ctx, 2):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 2)")
                        self.state = 109
                        localctx.op = self.match(CELParser.DOT)
                        self.state = 110
                        localctx.id_ = self.match(CELParser.IDENTIFIER)
                        self.state = 111
                        localctx.open_ = self.match(CELParser.LPAREN)
                        self.state = 113
                        self._errHandler.sync(self)
                        _la = self._input.LA(1)
                        if (((_la) & ~0x3f) == 0 and ((1 << _la) & 135762105344) != 0):
                            self.state = 112
                            localctx.args = self.exprList()


                        self.state = 115
                        self.match(CELParser.RPAREN)
                        pass

                    elif la_ == 3:
                        localctx = CELParser.IndexContext(self, CELParser.MemberContext(self, _parentctx, _parentState))
                        self.pushNewRecursionContext(localctx, _startState, self.RULE_member)
                        self.state = 116
                        if not self.precpred(self._ctx, 1):
                            from antlr4.error.Errors import FailedPredicateException
                            raise FailedPredicateException(self, "self.precpred(self._ctx, 1)")
                        self.state = 117
                        localctx.op = self.match(CELParser.LBRACKET)
                        self.state = 119
                        self._errHandler.sync(self)
                        _la = self._input.LA(1)
                        if _la==20:
                            self.state = 118
                            localctx.opt = self.match(CELParser.QUESTIONMARK)


                        self.state = 121
                        localctx.index = self.expr()
                        self.state = 122
                        self.match(CELParser.RPRACKET)
                        pass

             
                self.state = 128
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,13,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.unrollRecursionContexts(_parentctx)
        return localctx


    class PrimaryContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return CELParser.RULE_primary

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class CreateListContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.op = None # Token
            self.elems = None # ListInitContext
            self.copyFrom(ctx)

        def RPRACKET(self):
            return self.getToken(CELParser.RPRACKET, 0)
        def LBRACKET(self):
            return self.getToken(CELParser.LBRACKET, 0)
        def COMMA(self):
            return self.getToken(CELParser.COMMA, 0)
        def listInit(self):
            return self.getTypedRuleContext(CELParser.ListInitContext,0)



    class CreateStructContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.op = None # Token
            self.entries = None # MapInitializerListContext
            self.copyFrom(ctx)

        def RBRACE(self):
            return self.getToken(CELParser.RBRACE, 0)
        def LBRACE(self):
            return self.getToken(CELParser.LBRACE, 0)
        def COMMA(self):
            return self.getToken(CELParser.COMMA, 0)
        def mapInitializerList(self):
            return self.getTypedRuleContext(CELParser.MapInitializerListContext,0)



    class ConstantLiteralContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.copyFrom(ctx)

        def literal(self):
            return self.getTypedRuleContext(CELParser.LiteralContext,0)



    class NestedContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.e = None # ExprContext
            self.copyFrom(ctx)

        def LPAREN(self):
            return self.getToken(CELParser.LPAREN, 0)
        def RPAREN(self):
            return self.getToken(CELParser.RPAREN, 0)
        def expr(self):
            return self.getTypedRuleContext(CELParser.ExprContext,0)



    class CreateMessageContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.leadingDot = None # Token
            self._IDENTIFIER = None # Token
            self.ids = list() # of Tokens
            self.s16 = None # Token
            self.ops = list() # of Tokens
            self.op = None # Token
            self.entries = None # FieldInitializerListContext
            self.copyFrom(ctx)

        def RBRACE(self):
            return self.getToken(CELParser.RBRACE, 0)
        def IDENTIFIER(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.IDENTIFIER)
            else:
                return self.getToken(CELParser.IDENTIFIER, i)
        def LBRACE(self):
            return self.getToken(CELParser.LBRACE, 0)
        def COMMA(self):
            return self.getToken(CELParser.COMMA, 0)
        def DOT(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.DOT)
            else:
                return self.getToken(CELParser.DOT, i)
        def fieldInitializerList(self):
            return self.getTypedRuleContext(CELParser.FieldInitializerListContext,0)



    class IdentOrGlobalCallContext(PrimaryContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.PrimaryContext
            super().__init__(parser)
            self.leadingDot = None # Token
            self.id_ = None # Token
            self.op = None # Token
            self.args = None # ExprListContext
            self.copyFrom(ctx)

        def IDENTIFIER(self):
            return self.getToken(CELParser.IDENTIFIER, 0)
        def RPAREN(self):
            return self.getToken(CELParser.RPAREN, 0)
        def DOT(self):
            return self.getToken(CELParser.DOT, 0)
        def LPAREN(self):
            return self.getToken(CELParser.LPAREN, 0)
        def exprList(self):
            return self.getTypedRuleContext(CELParser.ExprListContext,0)




    def primary(self):

        localctx = CELParser.PrimaryContext(self, self._ctx, self.state)
        self.enterRule(localctx, 16, self.RULE_primary)
        self._la = 0 # Token type
        try:
            self.state = 180
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,25,self._ctx)
            if la_ == 1:
                localctx = CELParser.IdentOrGlobalCallContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 130
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==16:
                    self.state = 129
                    localctx.leadingDot = self.match(CELParser.DOT)


                self.state = 132
                localctx.id_ = self.match(CELParser.IDENTIFIER)
                self.state = 138
                self._errHandler.sync(self)
                la_ = self._interp.adaptivePredict(self._input,16,self._ctx)
                if la_ == 1:
                    self.state = 133
                    localctx.op = self.match(CELParser.LPAREN)
                    self.state = 135
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)
                    if (((_la) & ~0x3f) == 0 and ((1 << _la) & 135762105344) != 0):
                        self.state = 134
                        localctx.args = self.exprList()


                    self.state = 137
                    self.match(CELParser.RPAREN)


                pass

            elif la_ == 2:
                localctx = CELParser.NestedContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 140
                self.match(CELParser.LPAREN)
                self.state = 141
                localctx.e = self.expr()
                self.state = 142
                self.match(CELParser.RPAREN)
                pass

            elif la_ == 3:
                localctx = CELParser.CreateListContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 144
                localctx.op = self.match(CELParser.LBRACKET)
                self.state = 146
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 135763153920) != 0):
                    self.state = 145
                    localctx.elems = self.listInit()


                self.state = 149
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==17:
                    self.state = 148
                    self.match(CELParser.COMMA)


                self.state = 151
                self.match(CELParser.RPRACKET)
                pass

            elif la_ == 4:
                localctx = CELParser.CreateStructContext(self, localctx)
                self.enterOuterAlt(localctx, 4)
                self.state = 152
                localctx.op = self.match(CELParser.LBRACE)
                self.state = 154
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if (((_la) & ~0x3f) == 0 and ((1 << _la) & 135763153920) != 0):
                    self.state = 153
                    localctx.entries = self.mapInitializerList()


                self.state = 157
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==17:
                    self.state = 156
                    self.match(CELParser.COMMA)


                self.state = 159
                self.match(CELParser.RBRACE)
                pass

            elif la_ == 5:
                localctx = CELParser.CreateMessageContext(self, localctx)
                self.enterOuterAlt(localctx, 5)
                self.state = 161
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==16:
                    self.state = 160
                    localctx.leadingDot = self.match(CELParser.DOT)


                self.state = 163
                localctx._IDENTIFIER = self.match(CELParser.IDENTIFIER)
                localctx.ids.append(localctx._IDENTIFIER)
                self.state = 168
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                while _la==16:
                    self.state = 164
                    localctx.s16 = self.match(CELParser.DOT)
                    localctx.ops.append(localctx.s16)
                    self.state = 165
                    localctx._IDENTIFIER = self.match(CELParser.IDENTIFIER)
                    localctx.ids.append(localctx._IDENTIFIER)
                    self.state = 170
                    self._errHandler.sync(self)
                    _la = self._input.LA(1)

                self.state = 171
                localctx.op = self.match(CELParser.LBRACE)
                self.state = 173
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==20 or _la==36:
                    self.state = 172
                    localctx.entries = self.fieldInitializerList()


                self.state = 176
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==17:
                    self.state = 175
                    self.match(CELParser.COMMA)


                self.state = 178
                self.match(CELParser.RBRACE)
                pass

            elif la_ == 6:
                localctx = CELParser.ConstantLiteralContext(self, localctx)
                self.enterOuterAlt(localctx, 6)
                self.state = 179
                self.literal()
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ExprListContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self._expr = None # ExprContext
            self.e = list() # of ExprContexts

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.ExprContext)
            else:
                return self.getTypedRuleContext(CELParser.ExprContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COMMA)
            else:
                return self.getToken(CELParser.COMMA, i)

        def getRuleIndex(self):
            return CELParser.RULE_exprList




    def exprList(self):

        localctx = CELParser.ExprListContext(self, self._ctx, self.state)
        self.enterRule(localctx, 18, self.RULE_exprList)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 182
            localctx._expr = self.expr()
            localctx.e.append(localctx._expr)
            self.state = 187
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            while _la==17:
                self.state = 183
                self.match(CELParser.COMMA)
                self.state = 184
                localctx._expr = self.expr()
                localctx.e.append(localctx._expr)
                self.state = 189
                self._errHandler.sync(self)
                _la = self._input.LA(1)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class ListInitContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self._optExpr = None # OptExprContext
            self.elems = list() # of OptExprContexts

        def optExpr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.OptExprContext)
            else:
                return self.getTypedRuleContext(CELParser.OptExprContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COMMA)
            else:
                return self.getToken(CELParser.COMMA, i)

        def getRuleIndex(self):
            return CELParser.RULE_listInit




    def listInit(self):

        localctx = CELParser.ListInitContext(self, self._ctx, self.state)
        self.enterRule(localctx, 20, self.RULE_listInit)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 190
            localctx._optExpr = self.optExpr()
            localctx.elems.append(localctx._optExpr)
            self.state = 195
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,27,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    self.state = 191
                    self.match(CELParser.COMMA)
                    self.state = 192
                    localctx._optExpr = self.optExpr()
                    localctx.elems.append(localctx._optExpr) 
                self.state = 197
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,27,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class FieldInitializerListContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self._optField = None # OptFieldContext
            self.fields = list() # of OptFieldContexts
            self.s21 = None # Token
            self.cols = list() # of Tokens
            self._expr = None # ExprContext
            self.values = list() # of ExprContexts

        def optField(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.OptFieldContext)
            else:
                return self.getTypedRuleContext(CELParser.OptFieldContext,i)


        def COLON(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COLON)
            else:
                return self.getToken(CELParser.COLON, i)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.ExprContext)
            else:
                return self.getTypedRuleContext(CELParser.ExprContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COMMA)
            else:
                return self.getToken(CELParser.COMMA, i)

        def getRuleIndex(self):
            return CELParser.RULE_fieldInitializerList




    def fieldInitializerList(self):

        localctx = CELParser.FieldInitializerListContext(self, self._ctx, self.state)
        self.enterRule(localctx, 22, self.RULE_fieldInitializerList)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 198
            localctx._optField = self.optField()
            localctx.fields.append(localctx._optField)
            self.state = 199
            localctx.s21 = self.match(CELParser.COLON)
            localctx.cols.append(localctx.s21)
            self.state = 200
            localctx._expr = self.expr()
            localctx.values.append(localctx._expr)
            self.state = 208
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,28,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    self.state = 201
                    self.match(CELParser.COMMA)
                    self.state = 202
                    localctx._optField = self.optField()
                    localctx.fields.append(localctx._optField)
                    self.state = 203
                    localctx.s21 = self.match(CELParser.COLON)
                    localctx.cols.append(localctx.s21)
                    self.state = 204
                    localctx._expr = self.expr()
                    localctx.values.append(localctx._expr) 
                self.state = 210
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,28,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class OptFieldContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.opt = None # Token

        def IDENTIFIER(self):
            return self.getToken(CELParser.IDENTIFIER, 0)

        def QUESTIONMARK(self):
            return self.getToken(CELParser.QUESTIONMARK, 0)

        def getRuleIndex(self):
            return CELParser.RULE_optField




    def optField(self):

        localctx = CELParser.OptFieldContext(self, self._ctx, self.state)
        self.enterRule(localctx, 24, self.RULE_optField)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 212
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==20:
                self.state = 211
                localctx.opt = self.match(CELParser.QUESTIONMARK)


            self.state = 214
            self.match(CELParser.IDENTIFIER)
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class MapInitializerListContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self._optExpr = None # OptExprContext
            self.keys = list() # of OptExprContexts
            self.s21 = None # Token
            self.cols = list() # of Tokens
            self._expr = None # ExprContext
            self.values = list() # of ExprContexts

        def optExpr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.OptExprContext)
            else:
                return self.getTypedRuleContext(CELParser.OptExprContext,i)


        def COLON(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COLON)
            else:
                return self.getToken(CELParser.COLON, i)

        def expr(self, i:int=None):
            if i is None:
                return self.getTypedRuleContexts(CELParser.ExprContext)
            else:
                return self.getTypedRuleContext(CELParser.ExprContext,i)


        def COMMA(self, i:int=None):
            if i is None:
                return self.getTokens(CELParser.COMMA)
            else:
                return self.getToken(CELParser.COMMA, i)

        def getRuleIndex(self):
            return CELParser.RULE_mapInitializerList




    def mapInitializerList(self):

        localctx = CELParser.MapInitializerListContext(self, self._ctx, self.state)
        self.enterRule(localctx, 26, self.RULE_mapInitializerList)
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 216
            localctx._optExpr = self.optExpr()
            localctx.keys.append(localctx._optExpr)
            self.state = 217
            localctx.s21 = self.match(CELParser.COLON)
            localctx.cols.append(localctx.s21)
            self.state = 218
            localctx._expr = self.expr()
            localctx.values.append(localctx._expr)
            self.state = 226
            self._errHandler.sync(self)
            _alt = self._interp.adaptivePredict(self._input,30,self._ctx)
            while _alt!=2 and _alt!=ATN.INVALID_ALT_NUMBER:
                if _alt==1:
                    self.state = 219
                    self.match(CELParser.COMMA)
                    self.state = 220
                    localctx._optExpr = self.optExpr()
                    localctx.keys.append(localctx._optExpr)
                    self.state = 221
                    localctx.s21 = self.match(CELParser.COLON)
                    localctx.cols.append(localctx.s21)
                    self.state = 222
                    localctx._expr = self.expr()
                    localctx.values.append(localctx._expr) 
                self.state = 228
                self._errHandler.sync(self)
                _alt = self._interp.adaptivePredict(self._input,30,self._ctx)

        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class OptExprContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser
            self.opt = None # Token
            self.e = None # ExprContext

        def expr(self):
            return self.getTypedRuleContext(CELParser.ExprContext,0)


        def QUESTIONMARK(self):
            return self.getToken(CELParser.QUESTIONMARK, 0)

        def getRuleIndex(self):
            return CELParser.RULE_optExpr




    def optExpr(self):

        localctx = CELParser.OptExprContext(self, self._ctx, self.state)
        self.enterRule(localctx, 28, self.RULE_optExpr)
        self._la = 0 # Token type
        try:
            self.enterOuterAlt(localctx, 1)
            self.state = 230
            self._errHandler.sync(self)
            _la = self._input.LA(1)
            if _la==20:
                self.state = 229
                localctx.opt = self.match(CELParser.QUESTIONMARK)


            self.state = 232
            localctx.e = self.expr()
        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx


    class LiteralContext(ParserRuleContext):
        __slots__ = 'parser'

        def __init__(self, parser, parent:ParserRuleContext=None, invokingState:int=-1):
            super().__init__(parent, invokingState)
            self.parser = parser


        def getRuleIndex(self):
            return CELParser.RULE_literal

     
        def copyFrom(self, ctx:ParserRuleContext):
            super().copyFrom(ctx)



    class BytesContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def BYTES(self):
            return self.getToken(CELParser.BYTES, 0)


    class UintContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def NUM_UINT(self):
            return self.getToken(CELParser.NUM_UINT, 0)


    class NullContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def NUL(self):
            return self.getToken(CELParser.NUL, 0)


    class BoolFalseContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def CEL_FALSE(self):
            return self.getToken(CELParser.CEL_FALSE, 0)


    class StringContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def STRING(self):
            return self.getToken(CELParser.STRING, 0)


    class DoubleContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.sign = None # Token
            self.tok = None # Token
            self.copyFrom(ctx)

        def NUM_FLOAT(self):
            return self.getToken(CELParser.NUM_FLOAT, 0)
        def MINUS(self):
            return self.getToken(CELParser.MINUS, 0)


    class BoolTrueContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.tok = None # Token
            self.copyFrom(ctx)

        def CEL_TRUE(self):
            return self.getToken(CELParser.CEL_TRUE, 0)


    class IntContext(LiteralContext):

        def __init__(self, parser, ctx:ParserRuleContext): # actually a CELParser.LiteralContext
            super().__init__(parser)
            self.sign = None # Token
            self.tok = None # Token
            self.copyFrom(ctx)

        def NUM_INT(self):
            return self.getToken(CELParser.NUM_INT, 0)
        def MINUS(self):
            return self.getToken(CELParser.MINUS, 0)



    def literal(self):

        localctx = CELParser.LiteralContext(self, self._ctx, self.state)
        self.enterRule(localctx, 30, self.RULE_literal)
        self._la = 0 # Token type
        try:
            self.state = 248
            self._errHandler.sync(self)
            la_ = self._interp.adaptivePredict(self._input,34,self._ctx)
            if la_ == 1:
                localctx = CELParser.IntContext(self, localctx)
                self.enterOuterAlt(localctx, 1)
                self.state = 235
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==18:
                    self.state = 234
                    localctx.sign = self.match(CELParser.MINUS)


                self.state = 237
                localctx.tok = self.match(CELParser.NUM_INT)
                pass

            elif la_ == 2:
                localctx = CELParser.UintContext(self, localctx)
                self.enterOuterAlt(localctx, 2)
                self.state = 238
                localctx.tok = self.match(CELParser.NUM_UINT)
                pass

            elif la_ == 3:
                localctx = CELParser.DoubleContext(self, localctx)
                self.enterOuterAlt(localctx, 3)
                self.state = 240
                self._errHandler.sync(self)
                _la = self._input.LA(1)
                if _la==18:
                    self.state = 239
                    localctx.sign = self.match(CELParser.MINUS)


                self.state = 242
                localctx.tok = self.match(CELParser.NUM_FLOAT)
                pass

            elif la_ == 4:
                localctx = CELParser.StringContext(self, localctx)
                self.enterOuterAlt(localctx, 4)
                self.state = 243
                localctx.tok = self.match(CELParser.STRING)
                pass

            elif la_ == 5:
                localctx = CELParser.BytesContext(self, localctx)
                self.enterOuterAlt(localctx, 5)
                self.state = 244
                localctx.tok = self.match(CELParser.BYTES)
                pass

            elif la_ == 6:
                localctx = CELParser.BoolTrueContext(self, localctx)
                self.enterOuterAlt(localctx, 6)
                self.state = 245
                localctx.tok = self.match(CELParser.CEL_TRUE)
                pass

            elif la_ == 7:
                localctx = CELParser.BoolFalseContext(self, localctx)
                self.enterOuterAlt(localctx, 7)
                self.state = 246
                localctx.tok = self.match(CELParser.CEL_FALSE)
                pass

            elif la_ == 8:
                localctx = CELParser.NullContext(self, localctx)
                self.enterOuterAlt(localctx, 8)
                self.state = 247
                localctx.tok = self.match(CELParser.NUL)
                pass


        except RecognitionException as re:
            localctx.exception = re
            self._errHandler.reportError(self, re)
            self._errHandler.recover(self, re)
        finally:
            self.exitRule()
        return localctx



    def sempred(self, localctx:RuleContext, ruleIndex:int, predIndex:int):
        if self._predicates == None:
            self._predicates = dict()
        self._predicates[4] = self.relation_sempred
        self._predicates[5] = self.calc_sempred
        self._predicates[7] = self.member_sempred
        pred = self._predicates.get(ruleIndex, None)
        if pred is None:
            raise Exception("No predicate with index:" + str(ruleIndex))
        else:
            return pred(localctx, predIndex)

    def relation_sempred(self, localctx:RelationContext, predIndex:int):
            if predIndex == 0:
                return self.precpred(self._ctx, 1)
         

    def calc_sempred(self, localctx:CalcContext, predIndex:int):
            if predIndex == 1:
                return self.precpred(self._ctx, 2)
         

            if predIndex == 2:
                return self.precpred(self._ctx, 1)
         

    def member_sempred(self, localctx:MemberContext, predIndex:int):
            if predIndex == 3:
                return self.precpred(self._ctx, 3)
         

            if predIndex == 4:
                return self.precpred(self._ctx, 2)
         

            if predIndex == 5:
                return self.precpred(self._ctx, 1)
         




