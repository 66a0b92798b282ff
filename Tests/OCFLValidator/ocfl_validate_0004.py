"""ocfl-validate.py for a storage root of layout 0004-hashed-n-tuple-storage-layout.

ocfl-py 2.1.0 knows layouts 0002 and 0003 but not 0004, a registered OCFL community
extension, and stops at the root with E071 ("unknown layout"). This script registers
0004 as its specification defines it (the sha256 of the id, numberOfTuples tuples of
tupleSize hex digits, then the whole digest), marks its extension folder as registered,
and runs ocfl-py's own validator. It also checks that each object sits where 0004 puts
its id. Prints every error and warning, one per line, and a last line saying VALID or INVALID.
Usage: python ocfl_validate_0004.py ROOT
"""
import os
import sys

import ocfl
from ocfl.digest import string_digest
from ocfl.layout_0003_hash_and_id_n_tuple import Layout_0003_Hash_And_Id_N_Tuple
from ocfl.layout_registry import add_layout
from ocfl.storage_root import StorageRoot
from ocfl.validation_logger import ValidationLogger


class Layout_0004_Hashed_N_Tuple(Layout_0003_Hash_And_Id_N_Tuple):
    def __init__(self):
        super().__init__()
        self.NAME = "0004-hashed-n-tuple-storage-layout"
        self.DESCRIPTION = "Hashed N-tuple Storage Layout"
        self.PARAMS["shortObjectRoot"] = self.check_short_object_root
        self.short_object_root = False

    def check_short_object_root(self, value):
        self.short_object_root = bool(value)

    def identifier_to_path(self, identifier):
        digest = string_digest(identifier, self.digest_algorithm).lower()
        tuples = [digest[i * self.tuple_size:(i + 1) * self.tuple_size] for i in range(self.number_of_tuples)]
        return os.path.join(*tuples, digest)


add_layout("0004-hashed-n-tuple-storage-layout", Layout_0004_Hashed_N_Tuple)
_init = StorageRoot.__init__


def _init_with_0004(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self.registered_extensions.append("0004-hashed-n-tuple-storage-layout")


StorageRoot.__init__ = _init_with_0004

root = sys.argv[1]
# ocfl-py's list_objects logs a warning (W901) for a root extension it does not know, such
# as a push's staging folder (extensions/documentkit-push), through a log that only
# validate() makes: without one it fails with an AttributeError. Give it one.
lister = StorageRoot(root=root)
lister.log = ValidationLogger(log_warnings=False)
for path, identifier in lister.list_objects():
    expected = Layout_0004_Hashed_N_Tuple().identifier_to_path(identifier)
    if path != expected:
        print(f"[LAYOUT] object {identifier} is at {path}, 0004 puts it at {expected}")
        sys.exit(1)
store = StorageRoot(root=root)
valid = store.validate(log_warnings=True)
print(str(store.log).strip())
for _, messages in store.errors:
    print(messages)
valid = valid and store.num_objects == store.good_objects
print(f"OCFL Storage Root {root} is {'VALID' if valid else 'INVALID'} ({store.good_objects} of {store.num_objects} objects valid)")
sys.exit(0 if valid else 1)
