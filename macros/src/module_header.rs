//! The `#[attrs] VIS mod NAME` that starts the input of every module-generating macro.

use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, Token, Visibility};

/// The attributes (doc comments), visibility and name of the module to generate.
pub(crate) struct ModuleHeader {
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) visibility: Visibility,
    pub(crate) name: Ident,
}

impl Parse for ModuleHeader {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let visibility = input.parse()?;
        input.parse::<Token![mod]>()?;
        let name = input.parse()?;
        Ok(ModuleHeader {
            attrs,
            visibility,
            name,
        })
    }
}
