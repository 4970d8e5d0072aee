import sys
from pathlib import Path

# ui_fakes sits next to the tests; make it importable whatever the import mode.
sys.path.insert(0, str(Path(__file__).parent))
