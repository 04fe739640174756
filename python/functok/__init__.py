"""functok: the Functionalizer format's reference implementation.

The format rewrites case, 13 combining marks and character repetition as Private Use Area
instructions in front of a canonical lowercase base, losslessly:

>>> import functok
>>> stream = functok.encode("Héllo")
>>> [str(i) for i in functok.pieces("Héllo")[0].instructions]
['ACUTE(1)', 'CAPITALIZE(0)']
>>> functok.decode(stream)
'Héllo'

The public API is declared here, in one place. The codec core (this package's modules) never
imports the tokenizer (:mod:`functok.tokenizer`); it is re-exported here, after the core.
"""

from . import normalize as normalize
from .pretokenize import FUSE_MODES as FUSE_MODES
from .encoding import PROFILES as PROFILES
from .encoding import Instruction as Instruction
from .encoding import Piece as Piece
from .encoding import Profile as Profile
from .encoding import pieces as pieces
from .errors import ERROR_KINDS as ERROR_KINDS
from .errors import FormatError as FormatError
from .engine import backend as backend
from .engine import decode as decode
from .engine import encode as encode
from .engine import pretokens as pretokens
from .splitting import SPLITTERS as SPLITTERS
from .splitting import split as split
from .tokenizer import ByteFallbackError as ByteFallbackError
from .tokenizer import DecodeStream as DecodeStream
from .tokenizer import Encoding as Encoding
from .tokenizer import TokenFormatError as TokenFormatError
from .tokenizer import Tokenizer as Tokenizer
from .tokenizer import TokenizerFileError as TokenizerFileError
from .tokenizer import UnknownTokenIdError as UnknownTokenIdError

SPEC_VERSION = "1.2.1"
__version__ = "0.1.0"

__all__ = [
    "ByteFallbackError",
    "DecodeStream",
    "ERROR_KINDS",
    "Encoding",
    "FormatError",
    "Instruction",
    "FUSE_MODES",
    "PROFILES",
    "Piece",
    "Profile",
    "SPEC_VERSION",
    "SPLITTERS",
    "TokenFormatError",
    "Tokenizer",
    "TokenizerFileError",
    "UnknownTokenIdError",
    "__version__",
    "backend",
    "decode",
    "encode",
    "normalize",
    "pieces",
    "pretokens",
    "split",
]
