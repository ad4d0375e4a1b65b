import Ensign

print("ensign")
