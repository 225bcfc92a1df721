//! Drive C:'s disk as DOS describes it: one consistent FAT16 geometry,
//! the Drive Parameter Block, the BPB and the media ID that INT 21h
//! ([`crate::int21::disk`]) and DOS's data ([`crate::dosdata`]) hand out.
//! The folder behind drive C: has no real geometry: these figures
//! describe a 2 GiB fixed disk (64 sectors of 512 bytes per cluster) with
//! 1 GiB free, as a program of 1985-1995 would find on a big hard disk.

/// Bytes per sector.
pub const BYTES_PER_SECTOR: u16 = 512;
/// Sectors per cluster.
pub const SECTORS_PER_CLUSTER: u8 = 64;
/// Clusters on the disk (the largest FAT16 count DOS formats).
pub const CLUSTERS: u16 = 65518;
/// Free clusters at most (1 GiB); the guest's quota ([`crate::quota`])
/// usually leaves fewer (see [`free_clusters`]).
pub const FREE_CLUSTERS: u16 = 32768;
/// Offset of the free-cluster count in the DPB (DOS 4+, FFFFh unknown).
pub const DPB_FREE: u16 = 0x1F;

/// Free clusters for `free` bytes of quota left: whole clusters, at most
/// [`FREE_CLUSTERS`], so 36h's figure is what the guest can really write.
pub fn free_clusters(free: u64) -> u16 {
    let cluster = SECTORS_PER_CLUSTER as u64 * BYTES_PER_SECTOR as u64;
    (free / cluster).min(FREE_CLUSTERS as u64) as u16
}
/// Media descriptor: fixed disk.
pub const MEDIA: u8 = 0xF8;
/// Reserved sectors before the first FAT.
const RESERVED: u16 = 1;
/// FAT copies.
const FATS: u8 = 2;
/// Root directory entries.
const ROOT_ENTRIES: u16 = 512;
/// Sectors per FAT (two bytes per cluster entry).
const FAT_SECTORS: u16 = ((CLUSTERS as u32 + 2) * 2).div_ceil(BYTES_PER_SECTOR as u32) as u16;
/// Sectors of the root directory.
const ROOT_SECTORS: u16 = ROOT_ENTRIES * 32 / BYTES_PER_SECTOR;
/// First sector of the root directory.
const DIR_SECTOR: u16 = RESERVED + FATS as u16 * FAT_SECTORS;
/// First data sector.
const DATA_SECTOR: u16 = DIR_SECTOR + ROOT_SECTORS;
/// Sectors per track and heads of the BPB.
const SECTORS_PER_TRACK: u16 = 63;
const HEADS: u16 = 128;
/// Hidden sectors (the partition starts on the second track).
const HIDDEN: u32 = 63;
/// Total sectors of the partition.
pub const TOTAL_SECTORS: u32 = DATA_SECTOR as u32 + CLUSTERS as u32 * SECTORS_PER_CLUSTER as u32;
/// Drive letters DOS reports (LASTDRIVE=E).
pub const LASTDRIVE: u8 = 5;
/// The volume serial number (fixed: tandem is deterministic).
pub const SERIAL: u32 = 0x1994_0601;
/// The volume label (as a search for attribute 08h finds it).
pub const LABEL: &[u8; 11] = b"TANDEM     ";

/// Drive C:'s Drive Parameter Block (DOS 4+ layout, 21h bytes).
pub fn dpb(device: (u16, u16)) -> Vec<u8> {
    let mut d = vec![2, 0];
    d.extend(BYTES_PER_SECTOR.to_le_bytes());
    d.push(SECTORS_PER_CLUSTER - 1);
    d.push(SECTORS_PER_CLUSTER.trailing_zeros() as u8);
    d.extend(RESERVED.to_le_bytes());
    d.push(FATS);
    d.extend(ROOT_ENTRIES.to_le_bytes());
    d.extend(DATA_SECTOR.to_le_bytes());
    d.extend((CLUSTERS + 1).to_le_bytes()); // highest cluster number
    d.extend(FAT_SECTORS.to_le_bytes());
    d.extend(DIR_SECTOR.to_le_bytes());
    d.extend(device.1.to_le_bytes());
    d.extend(device.0.to_le_bytes());
    d.push(MEDIA);
    d.push(0); // accessed
    d.extend([0xFF; 4]); // no next DPB
    d.extend(2u16.to_le_bytes()); // search for free clusters from here
    d.extend(FREE_CLUSTERS.to_le_bytes());
    d
}

/// The DPB DOS derives from a BPB (INT 21h 53h): sizes, the first data
/// and directory sectors and the highest cluster from the sector counts.
pub fn dpb_from_bpb(b: &[u8]) -> Vec<u8> {
    let w = |k: usize| u16::from_le_bytes([b[k], b[k + 1]]) as u32;
    let bps = w(0).max(1);
    let spc = (b[2] as u32).max(1);
    let reserved = w(3);
    let fats = b[5] as u32;
    let root = w(6);
    let total = match w(8) {
        0 => u32::from_le_bytes([b[21], b[22], b[23], b[24]]),
        n => n,
    };
    let fat = w(11);
    let dir = reserved + fats * fat;
    let data = dir + (root * 32).div_ceil(bps);
    let clusters = total.saturating_sub(data) / spc;
    let mut d = vec![0u8; 0x21];
    d[2..4].copy_from_slice(&(bps as u16).to_le_bytes());
    d[4] = (spc - 1) as u8;
    d[5] = spc.trailing_zeros() as u8;
    d[6..8].copy_from_slice(&(reserved as u16).to_le_bytes());
    d[8] = fats as u8;
    d[9..11].copy_from_slice(&(root as u16).to_le_bytes());
    d[0x0B..0x0D].copy_from_slice(&(data as u16).to_le_bytes());
    d[0x0D..0x0F].copy_from_slice(&((clusters + 1).min(0xFFFF) as u16).to_le_bytes());
    d[0x0F..0x11].copy_from_slice(&(fat as u16).to_le_bytes());
    d[0x11..0x13].copy_from_slice(&(dir as u16).to_le_bytes());
    d[0x17] = b[10];
    d
}

/// The DOS 4+ BPB (25 bytes, then 6 reserved) of IOCTL 440Dh 60h.
pub fn bpb() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(BYTES_PER_SECTOR.to_le_bytes());
    b.push(SECTORS_PER_CLUSTER);
    b.extend(RESERVED.to_le_bytes());
    b.push(FATS);
    b.extend(ROOT_ENTRIES.to_le_bytes());
    b.extend(0u16.to_le_bytes()); // total sectors: in the large field
    b.push(MEDIA);
    b.extend(FAT_SECTORS.to_le_bytes());
    b.extend(SECTORS_PER_TRACK.to_le_bytes());
    b.extend(HEADS.to_le_bytes());
    b.extend(HIDDEN.to_le_bytes());
    b.extend(TOTAL_SECTORS.to_le_bytes());
    b.extend([0; 6]);
    b
}

/// Cylinders of the disk's geometry.
pub fn cylinders() -> u16 {
    (HIDDEN + TOTAL_SECTORS).div_ceil(SECTORS_PER_TRACK as u32 * HEADS as u32) as u16
}

/// The media ID block of 440Dh 66h and 6900h: info level 0, serial,
/// label, file system type.
pub fn media_id() -> Vec<u8> {
    let mut v = vec![0, 0];
    v.extend(SERIAL.to_le_bytes());
    v.extend(LABEL);
    v.extend(b"FAT16   ");
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_is_consistent() {
        assert_eq!(dpb((0, 0)).len(), 0x21);
        assert_eq!(bpb().len(), 31);
        assert_eq!(FAT_SECTORS, 256);
        assert_eq!(DATA_SECTOR, 545);
        // The FAT holds every cluster.
        assert!(FAT_SECTORS as u32 * 512 / 2 >= CLUSTERS as u32 + 2);
        assert!(cylinders() as u32 * 63 * 128 >= TOTAL_SECTORS);
        // Translating our own BPB gives our own DPB (53h).
        let mut from = dpb_from_bpb(&bpb());
        let ours = dpb((0, 0));
        from[0x13..0x17].copy_from_slice(&ours[0x13..0x17]);
        assert_eq!(&from[2..0x18], &ours[2..0x18]);
    }
}
