//! Which CPU this is, from `CPUID`: for the run-time choices that depend on how a CPU runs an
//! instruction, not only on whether it has it (the core's `PEXT` on AMD's Zen 1 and 2,
//! magic-search's AVX2 path on Zen 1).

/// A CPU's vendor and display family and model (the base fields extended as the vendors
/// document it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuSignature {
    /// The vendor string, such as `AuthenticAMD` or `GenuineIntel`.
    pub vendor: [u8; 12],
    /// The display family: the base family, plus the extended family where the base is 0xF.
    pub family: u32,
    /// The display model: the base model, with the extended model above it where the base
    /// family is 0x6 or 0xF.
    pub model: u32,
}

impl CpuSignature {
    /// Whether the vendor is AMD.
    pub fn is_amd(&self) -> bool {
        &self.vendor == b"AuthenticAMD"
    }
}

/// This CPU's signature; `None` off x86-64.
///
/// ```
/// if let Some(cpu) = bitforge_index::cpu::signature() {
///     assert!(cpu.family > 0);
/// }
/// ```
pub fn signature() -> Option<CpuSignature> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        let leaf0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        for (chunk, register) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
            chunk.copy_from_slice(&register.to_le_bytes());
        }
        Some(decode(vendor, __cpuid(1).eax))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The signature from the vendor string and leaf 1's `EAX`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn decode(vendor: [u8; 12], eax: u32) -> CpuSignature {
    let (base_family, base_model) = ((eax >> 8) & 0xF, (eax >> 4) & 0xF);
    let (extended_family, extended_model) = ((eax >> 20) & 0xFF, (eax >> 16) & 0xF);
    let family = if base_family == 0xF {
        base_family + extended_family
    } else {
        base_family
    };
    let model = if matches!(base_family, 0x6 | 0xF) {
        extended_model << 4 | base_model
    } else {
        base_model
    };
    CpuSignature {
        vendor,
        family,
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_decode_as_the_vendors_document() {
        // AMD EPYC 7551 (Zen 1): family 0x17, model 0x01.
        let zen1 = decode(*b"AuthenticAMD", 0x0080_0F12);
        assert_eq!((zen1.family, zen1.model), (0x17, 0x01));
        assert!(zen1.is_amd());
        // AMD EPYC 7B13 (Zen 3): family 0x19, model 0x01.
        let zen3 = decode(*b"AuthenticAMD", 0x00A0_0F11);
        assert_eq!((zen3.family, zen3.model), (0x19, 0x01));
        // Intel Rocket Lake: family 6, model 0xA7.
        let rocket_lake = decode(*b"GenuineIntel", 0x000A_0671);
        assert_eq!((rocket_lake.family, rocket_lake.model), (0x6, 0xA7));
        assert!(!rocket_lake.is_amd());
        // Below family 6 the extended fields do not count.
        let old = decode(*b"GenuineIntel", 0x00F0_0543);
        assert_eq!((old.family, old.model), (0x5, 0x4));
    }
}
