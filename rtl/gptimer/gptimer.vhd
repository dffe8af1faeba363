-- GPTIMER: general-purpose timer unit with an APB slave interface
-- (hw-reference §4; rtl/gptimer/README.md). A shared prescaler and
-- `ntimers` down-counting timers with reload, restart, load, chaining and
-- one interrupt output per timer. Written for leon3vp; one clock, rising
-- edge, synchronous active-low reset.
--
-- Clock rules (the same as the TLM model's, models/periph/gptimer/README.md):
--  * the prescaler decrements on every edge while a timer was enabled in the
--    previous cycle; from 0 it reloads SRELOAD and emits a tick;
--  * a tick at edge T starts a sweep: timer n is updated at edge T+1+n; a
--    tick while a sweep still runs is lost;
--  * in its slot an enabled timer decrements (CH=1: only if the previous
--    timer underflowed one clock earlier; timer 1 chains to the last timer);
--    underflow = decrement from 0: RS=1 reloads, RS=0 clears EN and leaves
--    all ones; with IE=1, IP is set and irq(n-1) is high for the next cycle;
--  * an APB write is sampled at the edge where psel, penable and pwrite are
--    high and overrides what the counting did at that edge.
--
-- GHDL 2.0's synthesis treats `when others` of a case on a std_ulogic_vector
-- like the last listed choice, so every choice is spelled out here.
--
-- `hold` is not a GRLIB pin: while it is high an edge performs the APB
-- write (if any) but moves no counting state (prescaler, sweep, timers,
-- underflow flags, irq). The co-simulation adapter uses it to apply several
-- accesses the TLM world makes within one clock cycle (README "hold").
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity gptimer is
  generic (
    ntimers : integer range 1 to 7 := 2;
    sbits   : integer range 1 to 32 := 8;
    nbits   : integer range 1 to 32 := 32;
    pirq    : integer range 0 to 31 := 8;
    sepirq  : integer range 0 to 1 := 1);
  port (
    clk     : in  std_ulogic;
    rstn    : in  std_ulogic;
    hold    : in  std_ulogic;
    psel    : in  std_ulogic;
    penable : in  std_ulogic;
    paddr   : in  std_ulogic_vector(7 downto 0);
    pwrite  : in  std_ulogic;
    pwdata  : in  std_ulogic_vector(31 downto 0);
    prdata  : out std_ulogic_vector(31 downto 0);
    irq     : out std_ulogic_vector(ntimers - 1 downto 0));
end entity;

architecture rtl of gptimer is
  subtype value_t is unsigned(nbits - 1 downto 0);
  type value_array is array (1 to ntimers) of value_t;
  subtype tbits is std_ulogic_vector(1 to ntimers);

  type reg_t is record
    scaler  : unsigned(sbits - 1 downto 0);
    sreload : unsigned(sbits - 1 downto 0);
    sweep   : integer range 0 to 8;  -- 0: idle; k > 1: timer k-1 updates at this edge
    df      : std_ulogic;
    en, rs, ie, ip, ch : tbits;
    uflow   : tbits;  -- timer n underflowed at the last edge (chain input of n+1)
    irq     : tbits;
  end record;

  constant ones_s : unsigned(sbits - 1 downto 0) := (others => '1');
  constant ones_v : value_t := (others => '1');
  constant zero_t : tbits := (others => '0');

  -- The counters and reloads are registers of their own: GHDL's synthesis
  -- packs a record into one vector, and Verilator evaluates a vector wider
  -- than 64 bits word by word (several times slower per clock).
  signal r, rin : reg_t;
  signal rval, rinval : value_array;  -- TCNTVAL n
  signal rrld, rinrld : value_array;  -- TRLDVAL n
begin

  comb : process (r, rval, rrld, rstn, hold, psel, penable, paddr, pwrite, pwdata)
    variable v      : reg_t;
    variable vval   : value_array;
    variable vrld   : value_array;
    variable tick   : boolean;
    variable chain  : std_ulogic;
    variable tn     : integer range 0 to 7;   -- paddr[6:4]: 0 = global registers, n = timer n
    variable sel    : std_ulogic_vector(1 downto 0);  -- paddr[3:2]: the register in the group
    variable rdata  : std_ulogic_vector(31 downto 0);
  begin
    v := r;
    vval := rval;
    vrld := rrld;
    tn := to_integer(unsigned(paddr(6 downto 4)));
    sel := paddr(3 downto 2);

    -- Counting (frozen while hold is high).
    if hold = '0' then
      v.uflow := zero_t;
      v.irq := zero_t;
      tick := false;
      if r.en /= zero_t then
        if r.scaler = 0 then
          v.scaler := r.sreload;
          tick := true;
        else
          v.scaler := r.scaler - 1;
        end if;
      end if;
      if r.sweep = ntimers + 1 then
        v.sweep := 0;
      elsif r.sweep /= 0 then
        v.sweep := r.sweep + 1;
      end if;
      if tick and (r.sweep = 0 or r.sweep = ntimers + 1) then
        v.sweep := 1;
      end if;
      for n in 1 to ntimers loop
        if n = 1 then
          chain := r.uflow(ntimers);
        else
          chain := r.uflow(n - 1);
        end if;
        if r.sweep = n + 1 and r.en(n) = '1' and (r.ch(n) = '0' or chain = '1') then
          if rval(n) = 0 then
            v.uflow(n) := '1';
            if r.rs(n) = '1' then
              vval(n) := rrld(n);
            else
              vval(n) := ones_v;
              v.en(n) := '0';
            end if;
            if r.ie(n) = '1' then
              v.ip(n) := '1';
              v.irq(n) := '1';
            end if;
          else
            vval(n) := rval(n) - 1;
          end if;
        end if;
      end loop;
    end if;

    -- APB write: overrides the counting of the same edge.
    if psel = '1' and penable = '1' and pwrite = '1' then
      if tn = 0 then
        case sel is
          when "00" =>
            v.scaler := unsigned(pwdata(sbits - 1 downto 0));
          when "01" =>
            v.sreload := unsigned(pwdata(sbits - 1 downto 0));
            v.scaler := unsigned(pwdata(sbits - 1 downto 0));
          when "10" =>
            v.df := pwdata(9);
            for n in 1 to ntimers loop
              if pwdata(15 + n) = '1' then
                v.en(n) := '1';
              end if;
            end loop;
          when "11" => null;  -- LATCHCFG
          when others => null;
        end case;
      else
          for n in 1 to ntimers loop
            if tn = n then
              case sel is
                when "00" => vval(n) := unsigned(pwdata(nbits - 1 downto 0));
                when "01" => vrld(n) := unsigned(pwdata(nbits - 1 downto 0));
                when "10" =>
                  v.en(n) := pwdata(0);
                  v.rs(n) := pwdata(1);
                  v.ie(n) := pwdata(3);
                  v.ch(n) := pwdata(5);
                  if pwdata(4) = '1' then
                    v.ip(n) := '0';
                  end if;
                  if pwdata(2) = '1' then
                    vval(n) := rrld(n);
                  end if;
                when "11" => null;  -- TLATCH
                when others => null;
              end case;
            end if;
          end loop;
      end if;
    end if;

    -- Reset field by field: GHDL 2.0's Verilog writer prints a record-wide
    -- constant as a quoted string, which Verilog reads as ASCII text.
    if rstn = '0' then
      v.scaler := ones_s;
      v.sreload := ones_s;
      v.sweep := 0;
      v.df := '0';
      for n in 1 to ntimers loop
        vval(n) := (others => '0');
        vrld(n) := (others => '0');
      end loop;
      v.en := zero_t;
      v.rs := zero_t;
      v.ie := zero_t;
      v.ip := zero_t;
      v.ch := zero_t;
      v.uflow := zero_t;
      v.irq := zero_t;
    end if;
    rin <= v;
    rinval <= vval;
    rinrld <= vrld;

    -- Read multiplexer: combinational from the registers (no side effect).
    rdata := (others => '0');
    if tn = 0 then
      case sel is
        when "00" => rdata(sbits - 1 downto 0) := std_ulogic_vector(r.scaler);
        when "01" => rdata(sbits - 1 downto 0) := std_ulogic_vector(r.sreload);
        when "10" =>
          rdata(2 downto 0) := std_ulogic_vector(to_unsigned(ntimers, 3));
          rdata(7 downto 3) := std_ulogic_vector(to_unsigned(pirq, 5));
          if sepirq = 1 then
            rdata(8) := '1';
          end if;
          rdata(9) := r.df;
        when "11" => null;  -- LATCHCFG: no latch feature
        when others => null;
      end case;
    else
        for n in 1 to ntimers loop
          if tn = n then
            case sel is
              when "00" => rdata(nbits - 1 downto 0) := std_ulogic_vector(rval(n));
              when "01" => rdata(nbits - 1 downto 0) := std_ulogic_vector(rrld(n));
              when "10" =>
                rdata(0) := r.en(n);
                rdata(1) := r.rs(n);
                rdata(3) := r.ie(n);
                rdata(4) := r.ip(n);
                rdata(5) := r.ch(n);
              when "11" => null;  -- TLATCH: no latch feature
              when others => null;
            end case;
          end if;
        end loop;
    end if;
    prdata <= rdata;
    for n in 1 to ntimers loop
      irq(n - 1) <= r.irq(n);
    end loop;
  end process;

  regs : process (clk)
  begin
    if rising_edge(clk) then
      r <= rin;
      rval <= rinval;
      rrld <= rinrld;
    end if;
  end process;

end architecture;
