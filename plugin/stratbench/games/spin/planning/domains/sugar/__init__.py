"""Sugar: cane is harvested, hauled, crushed and refined into sugar delivered to depots."""
