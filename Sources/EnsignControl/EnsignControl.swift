import Ensign
