#include "dereth/protocol/weenie_error.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace dereth::protocol {

namespace {

struct Sentence {
  std::uint32_t code;
  std::string_view text;
};

// WeenieError 0x028A: the codes a server sends most, in code order.
constexpr auto kPlain = std::to_array<Sentence>({
    {0x001D, "You are too busy to do that now."},
    {0x0024, "You cannot jump while you are in the air."},
    {0x0026, "That command is not valid."},
    {0x002A, "You are carrying too much to take that."},
    {0x0036, "The action was cancelled."},
    {0x0037, "You cannot get to that object."},
    {0x0039, "You cannot get to that object."},
    {0x003A, "You cannot do that while you are dead."},
    {0x003D, "You charged too far."},
    {0x003E, "You are too tired to do that."},
    {0x0048, "You cannot jump from where you stand."},
    {0x004A, "You killed yourself."},
    {0x03F7, "You are too exhausted to attack."},
    {0x03F8, "You have no ammunition left."},
    {0x03F9, "Your missile attack misfired."},
    {0x03FA, "That spell path cannot be followed."},
    {0x03FE, "You have not learned that spell."},
    {0x03FF, "That is the wrong kind of target."},
    {0x0400, "You lack some of the components this spell needs."},
    {0x0401, "You have too little mana to cast this spell."},
    {0x0402, "The spell fizzles."},
    {0x0403, "The target of your spell is gone."},
    {0x0404, "Your projectile spell went astray as it was launched."},
    {0x0407, "This spell cannot be cast outdoors."},
    {0x0408, "This spell cannot be cast indoors."},
    {0x040A, "You are not ready to cast a spell."},
    {0x0414, "You do not belong to an allegiance."},
    {0x041D, "Only the leader of a fellowship can do that."},
    {0x041E, "Your fellowship has no room for more members."},
    {0x041F, "That name is not allowed for a fellowship."},
    {0x042C, "You have no target."},
    {0x0433, "Your crafting attempt failed."},
    {0x0435, "Your crafting attempt failed."},
    {0x0437, "You or one of the items does not meet this craft's requirements."},
    {0x0438, "You lack some of the items this needs."},
    {0x0439, "Some of the items are not available."},
    {0x043A, "Trade skills need you at rest and out of combat."},
    {0x043B, "You are not trained in that trade skill."},
    {0x043D, "You cannot link to that portal."},
    {0x043E, "You solved this quest too recently."},
    {0x043F, "You have solved this quest as many times as allowed."},
    {0x0445, "You must complete a quest before you can pick this item up."},
    {0x045C, "Player killers cannot use that portal."},
    {0x045D, "Only player killers can use that portal."},
    {0x0466, "That portal needs the Dark Majesty expansion."},
    {0x0474, "You must complete a quest before you can use that portal."},
    {0x047F, "That command needs you to own a house."},
    {0x0480, "That cannot be locked or unlocked."},
    {0x0481, "You cannot lock or unlock something that is open."},
    {0x0498, "You moved too far away."},
    {0x049B, "Linking to the lifestone failed."},
    {0x049C, "You moved too far away to link to the lifestone."},
    {0x049D, "You are now linked to the lifestone."},
    {0x049E, "You must link to a lifestone before you can recall to it."},
    {0x049F, "Recalling to the lifestone failed."},
    {0x04A0, "Linking to the portal failed."},
    {0x04A1, "You are now linked to the portal."},
    {0x04A2, "Recalling to the portal failed."},
    {0x04A3, "You must link to a portal before you can recall to it."},
    {0x04A4, "Summoning the portal failed."},
    {0x04A5, "You must link to a portal before you can summon it."},
    {0x04A6, "The teleport failed."},
    {0x04A7, "You teleported too recently to do so again."},
    {0x04A8, "Only Advocates can use that portal."},
    {0x04AA, "Players cannot use that portal."},
    {0x04AB, "You are not strong enough to use that portal."},
    {0x04AC, "You are too strong to use that portal."},
    {0x04AD, "You cannot recall to that portal."},
    {0x04AE, "You cannot summon that portal."},
    {0x04B2, "That key does not fit this lock."},
    {0x04BE, "That item is not yours."},
    {0x04C8, "That item has too little mana."},
    {0x04CC, "You fought another player killer too recently to do that."},
    {0x04FC, "You are not trained in Healing."},
    {0x0500, "You are not ready to heal yet."},
    {0x0501, "Healing kits work only on player characters."},
    {0x0502, "The lifestone's magic shields you from the attack."},
    {0x0503, "The portal's lingering energy shields you from the attack."},
    {0x0505, "You are too close to your sanctuary."},
    {0x050F, "You are not in a fellowship."},
    {0x051B, "You joined your allegiance's chat room."},
    {0x051C, "You left an allegiance chat room."},
    {0x051D, "Turbine Chat is turned on."},
    {0x0526, "You lose your nerve."},
    {0x0528, "The fellowship is locked and cannot be opened."},
    {0x0529, "The trade is complete."},
    {0x052B, "That character is not available."},
    {0x0535, "Your place in the allegiance does not allow that."},
    {0x0548, "You cannot join chat channels while you are gagged."},
    {0x058D, "You cannot use that item."},
    {0x058E, "This person will not deal with you."},
});

// WeenieErrorWithString 0x028B: `%s` is the server's string.
constexpr auto kWithString = std::to_array<Sentence>({
    {0x001E, "%s is too busy to accept gifts right now."},
    {0x002B, "%s cannot carry anything more."},
    {0x004E, "You cannot affect %s: you cannot affect anyone."},
    {0x004F, "You cannot affect %s: they cannot be harmed."},
    {0x0050, "You cannot affect %s: beneficial spells do not work on them."},
    {0x0051, "You cannot affect %s: you are not a player killer."},
    {0x0052, "You cannot affect %s: they are not a player killer."},
    {0x0053, "You cannot affect %s: you are not the same kind of player killer."},
    {0x0054, "You cannot affect %s across a house boundary."},
    {0x03EF, "%s is not taking gifts right now."},
    {0x0416, "%s cannot take on any more vassals."},
    {0x046A, "%s does not know what to do with that."},
    {0x0488, "You must be above level %s to buy this dwelling."},
    {0x0489, "You must be level %s or below to buy this dwelling."},
    {0x04C6, "You must be %s to use that item's magic."},
    {0x04C9, "Your %s is too low to use that item's magic."},
    {0x04CA, "Only %s may use that item's magic."},
    {0x04CB, "You must have %s specialized to use that item's magic."},
    {0x04CE, "%s is too busy to accept gifts right now."},
    {0x04CF, "%s cannot take stacked items; give them one at a time."},
    {0x04F4, "%s cannot affect you: they cannot affect anyone."},
    {0x04F5, "%s cannot affect you: you cannot be harmed."},
    {0x04F6, "%s cannot affect you: they are not a player killer."},
    {0x04F7, "%s cannot affect you: you are not a player killer."},
    {0x04F8, "%s cannot affect you: you are not the same kind of player killer."},
    {0x04F9, "%s cannot affect you across a house boundary."},
    {0x04FA, "%s is not a valid target."},
    {0x04FB, "You are not a valid target for %s's spell."},
    {0x04FF, "%s is already at full health."},
    {0x0509, "%s has nothing equipped that this spell can target."},
    {0x050A, "You have nothing equipped that %s's spell can target."},
    {0x050B, "%s is now an open fellowship: any member may recruit."},
    {0x050C, "%s is now a closed fellowship."},
    {0x050D, "%s now leads this fellowship."},
    {0x050E, "You handed the leadership of the fellowship to %s."},
    {0x0517, "%s's level is too far from yours."},
    {0x0518, "The fellowship is locked, so %s cannot be recruited."},
    {0x051B, "You joined the %s channel."},
    {0x051C, "You left the %s channel."},
    {0x051E, "%s will not receive your message; ask for urgent assistance to reach a game master."},
    {0x0521, "You will now hear %s."},
    {0x0522, "You will no longer hear %s."},
    {0x052C, "You are now snooping on %s."},
    {0x052D, "You stopped snooping on %s."},
    {0x052E, "You could not snoop on %s."},
    {0x052F, "%s tried to snoop on you."},
    {0x0530, "Someone is already snooping on %s; only one may at a time."},
    {0x0531, "%s is in limbo and cannot get your message."},
    {0x0547, "You must wait %s before you can talk again."},
    {0x0551, "You are not listening to the %s channel."},
    {0x0562, "%s is already on your friends list."},
});

template <std::size_t N>
std::optional<std::string_view> find(const std::array<Sentence, N>& table, std::uint32_t code) {
  const auto it =
      std::lower_bound(table.begin(), table.end(), code, [](const Sentence& s, std::uint32_t c) { return s.code < c; });
  if (it == table.end() || it->code != code) return std::nullopt;
  return it->text;
}

// Every `%s` of `sentence` becomes `text`; nothing else is interpreted.
std::string fill(std::string_view sentence, std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = sentence.find("%s", pos);
    out.append(sentence.substr(pos, at == std::string_view::npos ? std::string_view::npos : at - pos));
    if (at == std::string_view::npos) break;
    out.append(text);
    pos = at + 2;
  }
  return out;
}

}  // namespace

std::optional<std::string_view> weenie_error_sentence(std::uint32_t code, bool with_string) {
  return with_string ? find(kWithString, code) : find(kPlain, code);
}

std::string weenie_error_text(std::uint32_t code, const std::optional<std::string>& text) {
  if (text) {
    if (auto s = find(kWithString, code)) return fill(*s, *text);
    // A code known only without a string: its sentence, then the string.
    if (auto s = find(kPlain, code)) return text->empty() ? std::string(*s) : fmt::format("{} {}", *s, *text);
    return text->empty() ? fmt::format("The server answered with code 0x{:04X}.", code)
                         : fmt::format("The server answered with code 0x{:04X}: {}", code, *text);
  }
  if (auto s = find(kPlain, code)) return std::string(*s);
  // Unknown, or a sentence that needs the string the server left out.
  return fmt::format("The server answered with code 0x{:04X}.", code);
}

}  // namespace dereth::protocol
